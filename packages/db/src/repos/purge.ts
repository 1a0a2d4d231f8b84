import { DAY_MS } from '@frontdesk/domain';
import { sql } from 'kysely';
import type { Db } from '../connect';

/**
 * Deletes what can no longer be used: expired sign-in codes, sessions, pending OAuth
 * authorizations and codes, refresh tokens long expired or revoked, mail sent a month ago,
 * OAuth clients registered a day ago and never used, revocations older than any access token,
 * rate-limit windows that have ended, and holds a day past their expiry (used, released or
 * left to lapse: none counts as busy any more, and the booking made from one keeps its own copy).
 * Kept a day past expiry so a late "already used / expired" answer can still be precise.
 */
export async function purgeExpired(db: Db, now: Date): Promise<Record<string, number>> {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const count = (r: { numDeletedRows: bigint }) => Number(r.numDeletedRows);
  const purged: Record<string, number> = {};
  // What ends by one time column: deleted once that time is before the given one.
  for (const [table, column, before] of [
    ['sign_in_codes', 'expires_at', dayAgo],
    ['key_sessions', 'expires_at', now],
    ['pro_sessions', 'expires_at', now],
    ['oauth_requests', 'expires_at', now],
    ['oauth_codes', 'expires_at', dayAgo],
    ['oauth_revoked_sign_ins', 'revoked_at', dayAgo],
    ['rate_limits', 'resets_at', now],
    ['idempotency_keys', 'expires_at', now],
    ['holds', 'expires_at', dayAgo],
  ] as const) {
    purged[table] = count(await db.deleteFrom(table).where(column, '<', before).executeTakeFirst());
  }
  return {
    ...purged,
    oauth_refresh_tokens: count(
      await db
        .deleteFrom('oauth_refresh_tokens')
        .where((eb) => eb.or([eb('expires_at', '<', dayAgo), eb('revoked_at', '<', dayAgo), eb('used_at', '<', new Date(now.getTime() - 30 * DAY_MS))]))
        .executeTakeFirst(),
    ),
    // Dynamically registered clients (fdc_…) that never got a code within a day of registering.
    // Clients used before last_used_at existed have no date: their codes and tokens vouch for them
    // (so codes and tokens are purged first).
    oauth_clients: count(
      await db
        .deleteFrom('oauth_clients')
        .where('id', 'like', 'fdc\\_%')
        .where('last_used_at', 'is', null)
        .where('created_at', '<', dayAgo)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('oauth_codes').select('code_hash').whereRef('oauth_codes.client_id', '=', 'oauth_clients.id'))))
        .where((eb) =>
          eb.not(eb.exists(eb.selectFrom('oauth_refresh_tokens').select('token_hash').whereRef('oauth_refresh_tokens.client_id', '=', 'oauth_clients.id'))),
        )
        .executeTakeFirst(),
    ),
    outbox: count(
      await db
        .deleteFrom('outbox')
        .where('sent_at', '<', sql<Date>`${now}::timestamptz - interval '30 days'`)
        .executeTakeFirst(),
    ),
  };
}
