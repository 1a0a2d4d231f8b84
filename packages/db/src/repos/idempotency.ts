import type { IdempotencyClaim, IdempotencyHold, IdempotencyRequest, IdempotencyStore } from '@frontdesk/domain';
import type { Db } from '../connect';

/**
 * Takes the key for this request, or tells what holds it. The insert settles a race between
 * two identical requests: exactly one gets 'new'. A key whose answer has expired, or whose
 * first request stopped without an answer (its lease ran out, or `replacing` names its holder
 * as dead), can be taken again.
 */
export async function claimIdempotencyKey(db: Db, r: IdempotencyRequest): Promise<IdempotencyClaim> {
  const leasedUntil = new Date(r.now.getTime() + r.leaseMs);
  const expiresAt = new Date(r.now.getTime() + r.keepMs);
  // What a first request, or one taking the key over, writes: the same either way.
  const claim = { operation: r.operation, request_hash: r.requestHash, response: null, leased_until: leasedUntil, expires_at: expiresAt, holder: r.holder };
  const taken = await db
    .insertInto('idempotency_keys')
    .values({ credential: r.credential, key: r.key, ...claim })
    .onConflict((oc) =>
      oc
        .columns(['credential', 'key'])
        .doUpdateSet(claim)
        .where((eb) =>
          eb.or([
            eb('idempotency_keys.expires_at', '<=', r.now),
            eb.and([
              eb('idempotency_keys.response', 'is', null),
              eb('idempotency_keys.request_hash', '=', r.requestHash),
              r.replacing === undefined
                ? eb('idempotency_keys.leased_until', '<=', r.now)
                : eb.or([eb('idempotency_keys.leased_until', '<=', r.now), eb('idempotency_keys.holder', '=', r.replacing)]),
            ]),
          ]),
        ),
    )
    .returning('key')
    .executeTakeFirst();
  if (taken) return { state: 'new' };
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['operation', 'request_hash', 'response', 'holder'])
    .where('credential', '=', r.credential)
    .where('key', '=', r.key)
    .executeTakeFirst();
  if (!row) return claimIdempotencyKey(db, r); // purged between the two statements
  if (row.operation !== r.operation || !row.request_hash.equals(r.requestHash)) return { state: 'mismatch', operation: row.operation };
  return row.response === null ? { state: 'running', holder: row.holder } : { state: 'done', response: row.response };
}

/** Keeps the answer of the request that holds the key (nothing, if another claim holds it now). */
export async function keepIdempotentResponse(db: Db, hold: IdempotencyHold, response: object): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ response: JSON.stringify(response) })
    .where('credential', '=', hold.credential)
    .where('key', '=', hold.key)
    .where('holder', '=', hold.holder)
    .where('response', 'is', null)
    .execute();
}

/**
 * Frees keys after requests that changed nothing (refused or failed), so a retry runs anew:
 * several in one statement (the releases an outage left waiting). A key another claim has
 * taken since is left alone.
 */
export async function releaseIdempotencyKeys(db: Db, holds: IdempotencyHold[]): Promise<void> {
  if (holds.length === 0) return;
  await db
    .deleteFrom('idempotency_keys')
    .where((eb) => eb.or(holds.map((h) => eb.and([eb('credential', '=', h.credential), eb('key', '=', h.key), eb('holder', '=', h.holder)]))))
    .where('response', 'is', null)
    .execute();
}

/** The store the HTTP kit uses, over one database. */
export function idempotencyStore(db: Db): IdempotencyStore {
  return {
    claim: (r: IdempotencyRequest) => claimIdempotencyKey(db, r),
    keep: (hold: IdempotencyHold, response: object) => keepIdempotentResponse(db, hold, response),
    release: (holds: IdempotencyHold[]) => releaseIdempotencyKeys(db, holds),
  };
}
