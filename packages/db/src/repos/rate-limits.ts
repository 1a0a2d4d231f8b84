import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../connect';

/** Counters are stored under a hash: the subject (an IP, an email, a credential) never is. */
const keyOf = (key: string) => createHash('sha256').update(key).digest();

/**
 * Counts one hit against `key` in a fixed window of `windowSeconds` starting at its first hit,
 * in one statement, so every replica shares the count. Returns the hits in the window so far
 * (this one included) and when the window ends.
 */
export async function hitRateLimit(db: Db, key: string, windowSeconds: number, now: Date): Promise<{ hits: number; resetsAt: Date }> {
  const resetsAt = new Date(now.getTime() + windowSeconds * 1000);
  const row = await db
    .insertInto('rate_limits')
    .values({ key: keyOf(key), hits: 1, resets_at: resetsAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`CASE WHEN rate_limits.resets_at <= ${now} THEN 1 ELSE rate_limits.hits + 1 END`,
        resets_at: sql<Date>`CASE WHEN rate_limits.resets_at <= ${now} THEN excluded.resets_at ELSE rate_limits.resets_at END`,
      }),
    )
    .returning(['hits', 'resets_at'])
    .executeTakeFirstOrThrow();
  return { hits: row.hits, resetsAt: row.resets_at };
}

/** The hits counted against `key` in its live window (0 when there is none), without counting one. */
export async function rateLimitHits(db: Db, key: string, now: Date): Promise<{ hits: number; resetsAt: Date | null }> {
  const row = await db.selectFrom('rate_limits').select(['hits', 'resets_at']).where('key', '=', keyOf(key)).where('resets_at', '>', now).executeTakeFirst();
  return row ? { hits: row.hits, resetsAt: row.resets_at } : { hits: 0, resetsAt: null };
}

/** What the HTTP layer's limiter needs of the database. */
export const rateLimitStore = (db: Db) => ({
  hit: (key: string, windowSeconds: number, now: Date) => hitRateLimit(db, key, windowSeconds, now),
  hits: (key: string, now: Date) => rateLimitHits(db, key, now),
});
