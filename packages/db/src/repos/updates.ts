import type { Db } from '../connect';
import type { EventRow } from '../tables/events';

/** Live bookings of a pro starting in [from, to), soonest first. */
export async function bookingsStartingBetween(db: Db, proId: string, from: Date, to: Date) {
  return db
    .selectFrom('bookings')
    .select(['id', 'starts_at', 'customer_name', 'address'])
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

/** The sequence number of the pro's newest event (0 before the first). */
export async function eventHead(db: Db, proId: string): Promise<number> {
  const { event_seq } = await db.selectFrom('pros').select('event_seq').where('id', '=', proId).executeTakeFirstOrThrow();
  return event_seq;
}

/** Up to `limit` events after a sequence number, or written since an instant, in order. */
export async function readEvents(db: Db, proId: string, after: { seq: number } | { since: Date }, limit: number): Promise<EventRow[]> {
  let q = db.selectFrom('events').selectAll().where('pro_id', '=', proId);
  q = 'seq' in after ? q.where('seq', '>', after.seq) : q.where('created_at', '>=', after.since);
  return q.orderBy('seq').limit(limit).execute();
}
