import { sql } from 'kysely';
import type { EventKind } from '@frontdesk/domain';
import type { Db } from '../connect';
import { flushWrites, writeLater } from '../write-batch';

/**
 * Appends an event to the pro's feed inside the caller's transaction. The sequence number
 * comes from the pro's row, bumped under its row lock: numbers are gapless (a rollback
 * takes its number back) and in commit order (the lock is held until commit), so a
 * poller reading `seq > cursor` never skips an event that commits later.
 *
 * With a dedupe key the event is written at most once per pro; the check runs under the
 * same lock, so whichever transaction comes first writes it and the rest write nothing.
 */
export interface NewEvent {
  /** One of the kinds the updates feed declares (the domain's EVENT_FIELDS). */
  kind: EventKind;
  payload: Record<string, unknown>;
  at: Date;
  /** At most one event per pro with this key. */
  dedupeKey?: string | null;
}

export async function appendEvent(trx: Db, proId: string, event: NewEvent): Promise<number | null> {
  const { kind, payload, at } = event;
  const dedupeKey = event.dedupeKey ?? null;
  // Events held back by appendEventLater take their numbers first: the feed keeps the order they were made in.
  await flushWrites(trx);
  if (dedupeKey !== null) {
    await trx.selectFrom('pros').select('id').where('id', '=', proId).forUpdate().execute();
    const seen = await trx.selectFrom('events').select('seq').where('pro_id', '=', proId).where('dedupe_key', '=', dedupeKey).executeTakeFirst();
    if (seen) return null;
  }
  const row = await sql<{ seq: number }>`
    WITH next AS (
      UPDATE pros SET event_seq = event_seq + 1 WHERE id = ${proId} RETURNING event_seq
    )
    INSERT INTO events (pro_id, seq, kind, payload, dedupe_key, created_at)
    SELECT ${proId}, event_seq, ${kind}, ${JSON.stringify(payload)}::jsonb, ${dedupeKey}, ${at} FROM next
    RETURNING seq`.execute(trx);
  const seq = row.rows[0]?.seq;
  if (seq === undefined) throw new Error(`appendEvent: no pro ${proId}`);
  return seq;
}

/**
 * appendEvent for a caller that does not need the event's number and has no dedupe key: inside
 * batchingWrites it is written with the transaction's other held writes, in the same statement
 * (the pro's counter bumped and the event inserted as two CTEs); anywhere else at once.
 */
export async function appendEventLater(trx: Db, proId: string, event: Omit<NewEvent, 'dedupeKey'>): Promise<void> {
  const { kind, payload, at } = event;
  await writeLater(
    trx,
    (name) => sql`${sql.ref(`${name}_seq`)} AS (
      UPDATE pros SET event_seq = event_seq + 1 WHERE id = ${proId} RETURNING event_seq
    ), ${sql.ref(name)} AS (
      INSERT INTO events (pro_id, seq, kind, payload, dedupe_key, created_at)
      SELECT ${proId}, event_seq, ${kind}, ${JSON.stringify(payload)}::jsonb, NULL, ${at} FROM ${sql.ref(`${name}_seq`)}
    )`,
    `pros:${proId}`,
  );
}
