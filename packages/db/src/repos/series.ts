import type { Db } from '../connect';
import type { Booking } from '../tables/bookings';
import { bookedJobsOf } from './bookings';
import type { Series, SeriesTable } from '../tables/series';
import type { Insertable } from 'kysely';

/** Writes a new series (inside the caller's transaction, with its first visit). */
export async function insertSeries(trx: Db, s: Omit<Insertable<SeriesTable>, 'ended_at'>): Promise<void> {
  await trx
    .insertInto('series')
    .values({ ...s, ended_at: null })
    .execute();
}

/** Locks a series' row, after its pro's (the lock order everywhere). */
export async function lockSeries(trx: Db, seriesId: string): Promise<Series | undefined> {
  return trx.selectFrom('series').selectAll().where('id', '=', seriesId).forUpdate().executeTakeFirst();
}

/** Moves a series' anchor (local time, first date), the last date it has visits booked through, its crew or the dates it skips. */
export async function updateSeries(
  trx: Db,
  seriesId: string,
  set: Partial<Pick<Series, 'local_minutes' | 'first_date' | 'planned_through' | 'crew_id' | 'paused_dates'>>,
): Promise<void> {
  await trx.updateTable('series').set(set).where('id', '=', seriesId).execute();
}

/** Every live series with its business's zone: what the horizon worker looks at. */
export async function liveSeries(db: Db): Promise<(Pick<Series, 'id' | 'pro_id' | 'frequency' | 'planned_through'> & { timezone: string })[]> {
  return db
    .selectFrom('series')
    .innerJoin('pros', 'pros.id', 'series.pro_id')
    .select(['series.id', 'series.pro_id', 'series.frequency', 'series.planned_through', 'pros.timezone'])
    .where('series.ended_at', 'is', null)
    .execute();
}

/** The booked visits of a series from `from` on, soonest first. */
export async function bookedVisitsFrom(db: Db, seriesId: string, from: Date): Promise<Booking[]> {
  return bookedJobsOf(db, 'series_id', seriesId).where('starts_at', '>=', from).execute();
}

/** One booking by id, whatever its pro (a series' template visit). */
export async function bookingById(db: Db, id: string): Promise<Booking | undefined> {
  return db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The visits of a series just before and just after `at`, cancelled ones left out: what keeps a move in the series' order. */
export async function visitsAround(db: Db, seriesId: string, at: Date): Promise<{ before?: Booking; after?: Booking }> {
  const live = () => db.selectFrom('bookings').selectAll().where('series_id', '=', seriesId).where('status', '<>', 'cancelled');
  const [before, after] = await Promise.all([
    live().where('starts_at', '<', at).orderBy('starts_at', 'desc').limit(1).executeTakeFirst(),
    live().where('starts_at', '>', at).orderBy('starts_at').limit(1).executeTakeFirst(),
  ]);
  return { before, after };
}

/** Whether a series has ended (cancelled from a visit on): it books no more visits. */
export async function seriesHasEnded(db: Db, seriesId: string): Promise<boolean> {
  const row = await db.selectFrom('series').select('ended_at').where('id', '=', seriesId).executeTakeFirst();
  return Boolean(row?.ended_at);
}

/** A business's series by id (undefined when it is another business's or none). */
export async function seriesOfPro(db: Db, proId: string, seriesId: string): Promise<Series | undefined> {
  return db.selectFrom('series').selectAll().where('id', '=', seriesId).where('pro_id', '=', proId).executeTakeFirst();
}

/** Every visit of a series, whatever its status, soonest first. */
export async function seriesVisits(db: Db, seriesId: string): Promise<Booking[]> {
  return db.selectFrom('bookings').selectAll().where('series_id', '=', seriesId).orderBy('starts_at').execute();
}
