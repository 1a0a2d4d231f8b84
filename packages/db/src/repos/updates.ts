import { sql } from 'kysely';
import type { Db } from '../connect';

/** Live bookings of a pro starting in [from, to), soonest first. */
export async function bookingsStartingBetween(db: Db, proId: string, from: Date, to: Date) {
  return db
    .selectFrom('bookings')
    .select(['id', 'starts_at', 'customer_name', 'address', 'crew_id', 'crew_name'])
    .where('pro_id', '=', proId)
    .where('status', '=', 'booked')
    .where('starts_at', '>=', from)
    .where('starts_at', '<', to)
    .orderBy('starts_at')
    .execute();
}

/** Which of these dedupe keys the pro's feed already holds. */
export async function writtenDedupeKeys(db: Db, proId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.selectFrom('events').select('dedupe_key').where('pro_id', '=', proId).where('dedupe_key', 'in', keys).execute();
  return new Set(rows.flatMap((r) => (r.dedupe_key === null ? [] : [r.dedupe_key])));
}

/** A page of the feed, with the head it was read against. */
export interface FeedPage {
  /** The sequence number of the pro's newest event (0 before the first). */
  head: number;
  events: { seq: number; kind: string; payload: Record<string, unknown>; created_at: Date }[];
}

/**
 * Up to `limit` events after a sequence number, or written since an instant, in order, and
 * the feed's head, in one statement. A window read starts at the first event of the window,
 * found through (pro_id, created_at): it never walks the pro's older history.
 */
export async function readFeed(db: Db, proId: string, after: { seq: number } | { since: Date }, limit: number): Promise<FeedPage> {
  const from =
    'seq' in after
      ? sql`e.seq > ${after.seq}`
      : sql`e.seq >= coalesce((SELECT min(w.seq) FROM events w WHERE w.pro_id = ${proId} AND w.created_at >= ${after.since}), 2147483647)
            AND e.created_at >= ${after.since}`;
  const { rows } = await sql<{ head: number | null; events: [number, string, Record<string, unknown>, number][] }>`
    SELECT (SELECT event_seq FROM pros WHERE id = ${proId}) AS head,
           coalesce((SELECT json_agg(json_build_array(seq, kind, payload, ms) ORDER BY seq) FROM (
             SELECT e.seq, e.kind, e.payload, (extract(epoch FROM e.created_at) * 1000)::float8 AS ms
               FROM events e
              WHERE e.pro_id = ${proId} AND ${from}
              ORDER BY e.seq
              LIMIT ${limit}
           ) page), '[]'::json) AS events`.execute(db);
  const row = rows[0]!;
  if (row.head === null) throw new Error(`readFeed: no pro ${proId}`);
  return { head: row.head, events: row.events.map(([seq, kind, payload, ms]) => ({ seq, kind, payload, created_at: new Date(ms) })) };
}
