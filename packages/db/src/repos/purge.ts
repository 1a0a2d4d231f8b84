import { sql } from 'kysely';
import type { Db } from '../connect';

const DAY = 86_400_000;

/**
 * Deletes what can no longer be used: expired sign-in codes, sessions, pending OAuth
 * authorizations and codes, refresh tokens long expired or revoked, mail sent a month ago,
 * OAuth clients registered a day ago and never used, revocations older than any access token,
 * and rate-limit windows that have ended.
 * Kept a day past expiry so a late "already used / expired" answer can still be precise.
 */
export async function purgeExpired(db: Db, now: Date): Promise<Record<string, number>> {
  const dayAgo = new Date(now.getTime() - DAY);
  const count = (r: { numDeletedRows: bigint }) => Number(r.numDeletedRows);
  return {
    sign_in_codes: count(await db.deleteFrom('sign_in_codes').where('expires_at', '<', dayAgo).executeTakeFirst()),
    key_sessions: count(await db.deleteFrom('key_sessions').where('expires_at', '<', now).executeTakeFirst()),
    pro_sessions: count(await db.deleteFrom('pro_sessions').where('expires_at', '<', now).executeTakeFirst()),
    oauth_requests: count(await db.deleteFrom('oauth_requests').where('expires_at', '<', now).executeTakeFirst()),
    oauth_codes: count(await db.deleteFrom('oauth_codes').where('expires_at', '<', dayAgo).executeTakeFirst()),
    oauth_refresh_tokens: count(
      await db
        .deleteFrom('oauth_refresh_tokens')
        .where((eb) => eb.or([eb('expires_at', '<', dayAgo), eb('revoked_at', '<', dayAgo), eb('used_at', '<', new Date(now.getTime() - 30 * DAY))]))
        .executeTakeFirst(),
    ),
    // Dynamically registered clients (fdc_…) that never got a code within a day of registering.
    // Clients used before last_used_at existed have no date: their codes and tokens vouch for them.
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
    oauth_revoked_sign_ins: count(await db.deleteFrom('oauth_revoked_sign_ins').where('revoked_at', '<', dayAgo).executeTakeFirst()),
    rate_limits: count(await db.deleteFrom('rate_limits').where('resets_at', '<', now).executeTakeFirst()),
    idempotency_keys: count(await db.deleteFrom('idempotency_keys').where('expires_at', '<', now).executeTakeFirst()),
    outbox: count(
      await db
        .deleteFrom('outbox')
        .where('sent_at', '<', sql<Date>`${now}::timestamptz - interval '30 days'`)
        .executeTakeFirst(),
    ),
  };
}
