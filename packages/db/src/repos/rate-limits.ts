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

/**
 * Leases a share of a budget: counts `share` hits against `key` at once, if all of them fit
 * under `limit` in the live window (a new window starts with them). Null when they do not fit:
 * the caller then counts one hit at a time. One statement, so replicas leasing at the same
 * moment are put in order by the row's lock and never lease past the limit together.
 */
export async function leaseRateLimit(
  db: Db,
  lease: { key: string; windowSeconds: number; share: number; limit: number },
  now: Date,
): Promise<{ hits: number; resetsAt: Date } | null> {
  if (lease.share > lease.limit) return null;
  const row = await db
    .insertInto('rate_limits')
    .values({ key: keyOf(lease.key), hits: lease.share, resets_at: new Date(now.getTime() + lease.windowSeconds * 1000) })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({
          hits: sql<number>`CASE WHEN rate_limits.resets_at <= ${now} THEN excluded.hits ELSE rate_limits.hits + excluded.hits END`,
          resets_at: sql<Date>`CASE WHEN rate_limits.resets_at <= ${now} THEN excluded.resets_at ELSE rate_limits.resets_at END`,
        })
        .where(sql<boolean>`rate_limits.resets_at <= ${now} OR rate_limits.hits + ${lease.share} <= ${lease.limit}`),
    )
    .returning(['hits', 'resets_at'])
    .executeTakeFirst();
  return row ? { hits: row.hits, resetsAt: row.resets_at } : null;
}

/** Gives back hits leased and never used, each to the window it was leased in (a window since renewed keeps its count). */
export async function returnRateLimitHits(db: Db, returns: { key: string; count: number; resetsAt: Date }[]): Promise<void> {
  for (const r of returns) {
    await db
      .updateTable('rate_limits')
      .set({ hits: sql<number>`GREATEST(hits - ${r.count}, 0)` })
      .where('key', '=', keyOf(r.key))
      .where('resets_at', '=', r.resetsAt)
      .execute();
  }
}

/** The hits counted against `key` in its live window (0 when there is none), without counting one. */
export async function rateLimitHits(db: Db, key: string, now: Date): Promise<{ hits: number; resetsAt: Date | null }> {
  const row = await db.selectFrom('rate_limits').select(['hits', 'resets_at']).where('key', '=', keyOf(key)).where('resets_at', '>', now).executeTakeFirst();
  return row ? { hits: row.hits, resetsAt: row.resets_at } : { hits: 0, resetsAt: null };
}

/** What the HTTP layer's limiter needs of the database. */
export const rateLimitStore = (db: Db) => ({
  hit: (key: string, windowSeconds: number, now: Date, count?: number) => hitRateLimit(db, { key, windowSeconds, count }, now),
  lease: (lease: { key: string; windowSeconds: number; share: number; limit: number }, now: Date) => leaseRateLimit(db, lease, now),
  giveBack: (returns: { key: string; count: number; resetsAt: Date }[]) => returnRateLimitHits(db, returns),
  hits: (key: string, now: Date) => rateLimitHits(db, key, now),
});
