import type { Db } from '../connect';

/** Where a retried write stands: first seen, answered before, still running, or a different request. */
export type IdempotencyClaim = { state: 'new' } | { state: 'done'; response: object } | { state: 'running' } | { state: 'mismatch'; operation: string };

export interface IdempotencyRequest {
  credential: string;
  key: string;
  operation: string;
  requestHash: Buffer;
  now: Date;
  /** How long the first request holds the key before a retry may take it over. */
  leaseMs: number;
  /** How long the answer is kept. */
  keepMs: number;
}

/**
 * Takes the key for this request, or tells what holds it. The insert settles a race between
 * two identical requests: exactly one gets 'new'. A key whose answer has expired, or whose
 * first request stopped without an answer (its lease ran out), can be taken again.
 */
export async function claimIdempotencyKey(db: Db, r: IdempotencyRequest): Promise<IdempotencyClaim> {
  const leasedUntil = new Date(r.now.getTime() + r.leaseMs);
  const expiresAt = new Date(r.now.getTime() + r.keepMs);
  const taken = await db
    .insertInto('idempotency_keys')
    .values({
      credential: r.credential,
      key: r.key,
      operation: r.operation,
      request_hash: r.requestHash,
      response: null,
      leased_until: leasedUntil,
      expires_at: expiresAt,
    })
    .onConflict((oc) =>
      oc
        .columns(['credential', 'key'])
        .doUpdateSet({ operation: r.operation, request_hash: r.requestHash, response: null, leased_until: leasedUntil, expires_at: expiresAt })
        .where((eb) =>
          eb.or([
            eb('idempotency_keys.expires_at', '<=', r.now),
            eb.and([
              eb('idempotency_keys.response', 'is', null),
              eb('idempotency_keys.leased_until', '<=', r.now),
              eb('idempotency_keys.request_hash', '=', r.requestHash),
            ]),
          ]),
        ),
    )
    .returning('key')
    .executeTakeFirst();
  if (taken) return { state: 'new' };
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['operation', 'request_hash', 'response'])
    .where('credential', '=', r.credential)
    .where('key', '=', r.key)
    .executeTakeFirst();
  if (!row) return claimIdempotencyKey(db, r); // purged between the two statements
  if (row.operation !== r.operation || !row.request_hash.equals(r.requestHash)) return { state: 'mismatch', operation: row.operation };
  return row.response === null ? { state: 'running' } : { state: 'done', response: row.response };
}

/** Keeps the answer of the request that holds the key. */
export async function keepIdempotentResponse(db: Db, credential: string, key: string, response: object): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ response: JSON.stringify(response) })
    .where('credential', '=', credential)
    .where('key', '=', key)
    .where('response', 'is', null)
    .execute();
}

/** Frees the key after a request that changed nothing (refused or failed), so a retry runs anew. */
export async function releaseIdempotencyKey(db: Db, credential: string, key: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('credential', '=', credential).where('key', '=', key).where('response', 'is', null).execute();
}

/** The store the HTTP kit uses, over one database. */
export function idempotencyStore(db: Db) {
  return {
    claim: (r: IdempotencyRequest) => claimIdempotencyKey(db, r),
    keep: (credential: string, key: string, response: object) => keepIdempotentResponse(db, credential, key, response),
    release: (credential: string, key: string) => releaseIdempotencyKey(db, credential, key),
  };
}
