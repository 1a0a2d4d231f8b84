import type { WeeklyHours } from '@frontdesk/domain';
import { sql } from 'kysely';
import type { Db } from '../connect';
import { newId } from '../ids';
import type { Booking } from '../tables/bookings';
import { bookedJobsOf } from './bookings';
import type { Crew } from '../tables/crews';

/** The crews of a business not removed, in crew order. */
export async function crewsOf(db: Db, proId: string): Promise<Crew[]> {
  return db.selectFrom('crews').selectAll().where('pro_id', '=', proId).where('removed_at', 'is', null).orderBy('position').orderBy('id').execute();
}

/** One crew of a business, not removed; another business's crew is not found. */
export async function crewOf(db: Db, proId: string, crewId: string): Promise<Crew | undefined> {
  return db.selectFrom('crews').selectAll().where('id', '=', crewId).where('pro_id', '=', proId).where('removed_at', 'is', null).executeTakeFirst();
}

/** Adds a crew after the business's last one (the caller holds the business's lock). */
export async function insertCrew(trx: Db, c: { proId: string; name: string; weeklyHours: WeeklyHours | null; now: Date }): Promise<Crew> {
  return trx
    .insertInto('crews')
    .values({
      id: newId('crew'),
      pro_id: c.proId,
      name: c.name,
      weekly_hours: c.weeklyHours === null ? null : JSON.stringify(c.weeklyHours),
      position: sql<number>`(SELECT coalesce(max(position), 0) + 1 FROM crews WHERE pro_id = ${c.proId})`,
      created_at: c.now,
      updated_at: c.now,
      removed_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface CrewChanges {
  name?: string;
  /** null: back to the business's hours. */
  weeklyHours?: WeeklyHours | null;
  active?: boolean;
  email?: string | null;
}

/** Changes a crew of the business (a rename reaches its jobs through the foreign key's cascade). */
export async function updateCrew(trx: Db, crew: { proId: string; crewId: string }, set: CrewChanges, now: Date): Promise<Crew> {
  const { proId, crewId } = crew;
  return trx
    .updateTable('crews')
    .set({
      ...(set.name !== undefined ? { name: set.name } : {}),
      ...(set.weeklyHours !== undefined ? { weekly_hours: set.weeklyHours === null ? null : JSON.stringify(set.weeklyHours) } : {}),
      ...(set.active !== undefined ? { active: set.active } : {}),
      ...(set.email !== undefined ? { email: set.email } : {}),
      updated_at: now,
    })
    .where('id', '=', crewId)
    .where('pro_id', '=', proId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Removes a crew: it keeps its row for its past jobs' sake, loses its time off and calendar address, and takes no more jobs. */
export async function markCrewRemoved(trx: Db, proId: string, crewId: string, now: Date): Promise<void> {
  await trx.deleteFrom('time_off').where('crew_id', '=', crewId).where('pro_id', '=', proId).execute();
  await trx.deleteFrom('crew_calendar_feeds').where('crew_id', '=', crewId).execute();
  await trx.updateTable('crews').set({ active: false, removed_at: now, updated_at: now }).where('id', '=', crewId).where('pro_id', '=', proId).execute();
}

/** Whether an error is the one-name-per-business index refusing a crew name. */
export const isCrewNameTaken = (err: unknown) =>
  (err as { code?: string; constraint?: string }).code === '23505' && (err as { constraint?: string }).constraint === 'crews_name';

/** A crew's booked jobs that have not started, soonest first, locked (after the business's row: the lock order). */
export async function lockUpcomingJobsOfCrew(trx: Db, crewId: string, now: Date): Promise<Booking[]> {
  return bookedJobsOf(trx, 'crew_id', crewId).where('starts_at', '>', now).forUpdate().execute();
}

/** Puts a job on another crew at the same time; the exclusion constraint refuses an overlap there. */
export async function setBookingCrew(trx: Db, bookingId: string, crewId: string, now: Date): Promise<Booking> {
  return trx.updateTable('bookings').set({ crew_id: crewId, updated_at: now }).where('id', '=', bookingId).returningAll().executeTakeFirstOrThrow();
}

/** How many booked jobs each crew of a business holds from `from` on. */
export async function upcomingJobCounts(db: Db, proId: string, from: Date): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('bookings')
    .select(['crew_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('pro_id', '=', proId)
    .where('status', '=', 'booked')
    .where('starts_at', '>', from)
    .groupBy('crew_id')
    .execute();
  return new Map(rows.map((r) => [r.crew_id, Number(r.n)]));
}
