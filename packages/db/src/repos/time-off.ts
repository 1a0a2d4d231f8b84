import type { Db } from '../connect';
import { newId } from '../ids';
import type { TimeOffRow } from '../tables/time-off';

/** Time off not yet over, soonest first, each with the name of its crew (null: the whole business's). */
export async function upcomingTimeOff(db: Db, proId: string, now: Date, limit = 100): Promise<(TimeOffRow & { crew_name: string | null })[]> {
  return db
    .selectFrom('time_off as t')
    .leftJoin('crews as c', 'c.id', 't.crew_id')
    .selectAll('t')
    .select('c.name as crew_name')
    .where('t.pro_id', '=', proId)
    .where('t.ends_at', '>', now)
    .orderBy('t.starts_at')
    .orderBy('t.id')
    .limit(limit)
    .execute();
}

export async function insertTimeOff(
  trx: Db,
  t: { proId: string; crewId: string | null; start: Date; end: Date; note: string | null; now: Date },
): Promise<TimeOffRow> {
  return trx
    .insertInto('time_off')
    .values({ id: newId('off'), pro_id: t.proId, crew_id: t.crewId, starts_at: t.start, ends_at: t.end, note: t.note, created_at: t.now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes one of the pro's own time off; another pro's id deletes nothing. */
export async function deleteTimeOff(trx: Db, proId: string, id: string): Promise<TimeOffRow | undefined> {
  return trx.deleteFrom('time_off').where('id', '=', id).where('pro_id', '=', proId).returningAll().executeTakeFirst();
}

/** Time off of the business and its crews that overlaps [from, to), soonest first. */
export async function timeOffBetween(db: Db, proId: string, range: { from: Date; to: Date }): Promise<TimeOffRow[]> {
  return db
    .selectFrom('time_off')
    .selectAll()
    .where('pro_id', '=', proId)
    .where('ends_at', '>', range.from)
    .where('starts_at', '<', range.to)
    .orderBy('starts_at')
    .orderBy('id')
    .execute();
}
