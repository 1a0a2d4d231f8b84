import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../connect';

/** Counters are stored under a hash: the subject (an IP, an email, a credential) never is. */
const keyOf = (key: string) => createHash('sha256').update(key).digest();

/**
 * Counts `count` hits against `key` in a fixed window of `windowSeconds` starting at its
 * first hit, in one statement, so every replica shares the count. Returns the hits in the
 * window so far (these included) and when the window ends.
 */
export async function hitRateLimit(db: Db, hit: { key: string; windowSeconds: number; count?: number }, now: Date): Promise<{ hits: number; resetsAt: Date }> {
  const [row] = await hitRateLimits(db, [{ ...hit, count: hit.count ?? 1 }], now);
  return row!;
}

/** Several keys' hits in one statement (a replica's batch of counts), in the order given. */
export async function hitRateLimits(
  db: Db,
  hits: { key: string; windowSeconds: number; count: number }[],
  now: Date,
): Promise<{ hits: number; resetsAt: Date }[]> {
  const keys = hits.map((h) => keyOf(h.key));
  const rows = await db
    .insertInto('rate_limits')
    .values(hits.map((h, i) => ({ key: keys[i]!, hits: h.count, resets_at: new Date(now.getTime() + h.windowSeconds * 1000) })))
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`CASE WHEN rate_limits.resets_at <= ${now} THEN excluded.hits ELSE rate_limits.hits + excluded.hits END`,
        resets_at: sql<Date>`CASE WHEN rate_limits.resets_at <= ${now} THEN excluded.resets_at ELSE rate_limits.resets_at END`,
      }),
    )
    .returning(['key', 'hits', 'resets_at'])
    .execute();
  const byKey = new Map(rows.map((r) => [r.key.toString('hex'), { hits: r.hits, resetsAt: r.resets_at }]));
  return keys.map((key) => byKey.get(key.toString('hex'))!);
}

/** The hits counted against `key` in its live window (0 when there is none), without counting one. */
export async function rateLimitHits(db: Db, key: string, now: Date): Promise<{ hits: number; resetsAt: Date | null }> {
  const row = await db.selectFrom('rate_limits').select(['hits', 'resets_at']).where('key', '=', keyOf(key)).where('resets_at', '>', now).executeTakeFirst();
  return row ? { hits: row.hits, resetsAt: row.resets_at } : { hits: 0, resetsAt: null };
}

/** What the HTTP layer's limiter needs of the database. */
export const rateLimitStore = (db: Db) => ({
  hit: (key: string, windowSeconds: number, now: Date, count?: number) => hitRateLimit(db, { key, windowSeconds, count }, now),
  hitMany: (hits: { key: string; windowSeconds: number; count: number }[], now: Date) => hitRateLimits(db, hits, now),
  hits: (key: string, now: Date) => rateLimitHits(db, key, now),
});
