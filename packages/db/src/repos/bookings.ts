import type { CrewSchedule, Quote, WeeklyHours } from '@frontdesk/domain';
import { sql } from 'kysely';
import type { Db } from '../connect';
import { hashSecret, newToken } from '../secrets';
import { holdIsLive } from './holds';
import type { Booking, CancelledBy, NewBooking } from '../tables/bookings';
import type { Pro } from '../tables/pros';

/** A business's active crews, each with its live jobs and time off (its own and the business's), in crew order. */
export interface BusyTimes {
  crews: CrewSchedule[];
  /** When the first live hold read expires (epoch ms), if any: what was read stops being the truth then. */
  heldUntil?: number;
}

type BusyRow =
  | [proId: string, kind: 'b' | 'o', start: number, end: number, crewId: string | null, bookingId: string | null]
  | [proId: string, kind: 'h', start: number, end: number, crewId: string | null, expiresAt: string];

/** The instants [from, to) whose busy times are read, and whether each booking's id is wanted (to let a moving one out of its own way). */
export interface BusySpan {
  from: Date;
  to: Date;
  bookingIds?: boolean;
}

/**
 * The active crews of many pros, with the live bookings and time off that touch [from, to),
 * as the availability rules see them. One round trip whatever the number of pros, and
 * instants come back as epoch milliseconds: parsing hundreds of timestamps into Dates was the
 * largest cost. A booking on its pro's first crew comes without a crew id (most pros have one
 * crew: the answer stays as small as before crews), and without its own id unless asked.
 * Each pro's rows are found by range overlap through the GiST indexes (bookings_live_pro_span,
 * holds_open_pro_span and time_off's), bounded on both sides: a pro's past never gets read.
 * A live hold (expires_at after the database's now()) is busy like the booking it would become.
 */
export async function loadBusyMany(db: Db, proIds: string[], span: BusySpan): Promise<Map<string, BusyTimes>> {
  const { from, to } = span;
  const byPro = new Map<string, BusyTimes>(proIds.map((id) => [id, { crews: [] }]));
  if (proIds.length === 0) return byPro;
  // One row holding two JSON arrays: a single native parse instead of thousands of row parses.
  const { rows } = await sql<{ crews: [string, string, WeeklyHours | null][]; busy: BusyRow[] }>`
    SELECT (SELECT coalesce(json_agg(json_build_array(c.pro_id, c.id, c.weekly_hours) ORDER BY c.pro_id, c.position, c.id), '[]'::json)
              FROM crews c
             WHERE c.pro_id = ANY(${proIds}::text[]) AND c.active) AS crews,
           (SELECT coalesce(json_agg(json_build_array(p.id, t.kind, t.s, t.e, t.crew_id, t.id)), '[]'::json)
              FROM unnest(${proIds}::text[]) AS p(id)
              CROSS JOIN LATERAL (SELECT id AS first_crew FROM crews WHERE pro_id = p.id AND active ORDER BY position, id LIMIT 1) f
              CROSS JOIN LATERAL (
                SELECT 'b' AS kind,
                       (extract(epoch FROM starts_at) * 1000)::float8 AS s,
                       (extract(epoch FROM blocked_until) * 1000)::float8 AS e,
                       nullif(crew_id, f.first_crew) AS crew_id,
                       CASE WHEN ${span.bookingIds === true} THEN id END AS id
                  FROM bookings
                 WHERE pro_id = p.id AND status <> 'cancelled'
                   AND tstzrange(starts_at, blocked_until, '[)') && tstzrange(${from}, ${to}, '[)')
                UNION ALL
                SELECT 'h', (extract(epoch FROM starts_at) * 1000)::float8, (extract(epoch FROM blocked_until) * 1000)::float8,
                       nullif(crew_id, f.first_crew), (extract(epoch FROM expires_at) * 1000)::bigint::text
                  FROM holds
                 WHERE pro_id = p.id AND ${holdIsLive('holds')}
                   AND tstzrange(starts_at, blocked_until, '[)') && tstzrange(${from}, ${to}, '[)')
                UNION ALL
                SELECT 'o', (extract(epoch FROM starts_at) * 1000)::float8, (extract(epoch FROM ends_at) * 1000)::float8, crew_id, NULL
                  FROM time_off
                 WHERE pro_id = p.id AND tstzrange(starts_at, ends_at) && tstzrange(${from}, ${to}, '[)')
              ) t) AS busy`.execute(db);
  const crewById = new Map<string, CrewSchedule>();
  for (const [proId, id, weeklyHours] of rows[0]!.crews) {
    const crew: CrewSchedule = { id, weekly_hours: weeklyHours, busy: [], timeOff: [] };
    crewById.set(id, crew);
    byPro.get(proId)!.crews.push(crew);
  }
  for (const row of rows[0]!.busy) {
    const [proId, kind, s, e, crewId] = row;
    const busy = byPro.get(proId)!;
    const crews = busy.crews;
    if (row[1] === 'h') {
      const crew = crewId === null ? crews[0] : crewById.get(crewId);
      crew?.busy.push({ start: new Date(s), blockedUntil: new Date(e) });
      busy.heldUntil = Math.min(busy.heldUntil ?? Number.POSITIVE_INFINITY, Number(row[5]));
    } else if (kind === 'b') {
      const bookingId = row[5];
      const crew = crewId === null ? crews[0] : crewById.get(crewId);
      crew?.busy.push(bookingId === null ? { start: new Date(s), blockedUntil: new Date(e) } : { start: new Date(s), blockedUntil: new Date(e), bookingId });
    } else if (crewId !== null) crewById.get(crewId)?.timeOff.push({ start: new Date(s), end: new Date(e) });
    else for (const crew of crews) crew.timeOff.push({ start: new Date(s), end: new Date(e) });
  }
  return byPro;
}

/** One pro's active crews and what fills them over the span. */
export async function loadBusy(db: Db, proId: string, span: BusySpan): Promise<BusyTimes> {
  return (await loadBusyMany(db, [proId], span)).get(proId)!;
}

/** Whether an error is the overlap constraint refusing a booking another writer made first. */
export const isOverlapViolation = (err: unknown) => (err as { code?: string }).code === '23P01';

/** Locks a pro's row: bookings of one pro are checked and written one at a time. */
export async function lockPro(trx: Db, proId: string): Promise<Pro | undefined> {
  return trx.selectFrom('pros').selectAll().where('id', '=', proId).forUpdate().executeTakeFirst();
}

/**
 * Was the time itself taken by a booking made since `since` (a lost race, not an old booking)?
 * Only the jobs' own spans count: a start that falls in a job's travel buffer was not taken by
 * that booking, and its refusal names the buffer.
 */
export async function bookedSince(db: Db, proId: string, slot: { start: Date; end: Date }, since: Date): Promise<boolean> {
  const row = await db
    .selectFrom('bookings')
    .select('id')
    .where('pro_id', '=', proId)
    .where('status', '<>', 'cancelled')
    .where('starts_at', '<', slot.end)
    .where('ends_at', '>', slot.start)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return row !== undefined;
}

/** What a caller decides about a new booking; the rest of the row starts as every new booking's does. */
export type BookingFields = Omit<
  NewBooking,
  'status' | 'quote' | 'fee_waived_at' | 'manage_token_hash' | 'cancelled_at' | 'cancelled_by' | 'no_show_reported_at' | 'created_at' | 'updated_at'
> & { quote: Quote };

/**
 * Writes a booking: live, not cancelled, no no-show, created now. With `manageToken` it gets a
 * manage token, returned once (only its hash is kept).
 */
export async function insertBooking(
  trx: Db,
  fields: BookingFields,
  o: { now: Date; manageToken: boolean },
): Promise<{ booking: Booking; manageToken: string | null }> {
  const manageToken = o.manageToken ? newToken() : null;
  const booking = await trx
    .insertInto('bookings')
    .values({
      ...fields,
      quote: JSON.stringify(fields.quote),
      fee_waived_at: null,
      manage_token_hash: manageToken === null ? null : hashSecret(manageToken),
      cancelled_at: null,
      cancelled_by: null,
      no_show_reported_at: null,
      created_at: o.now,
      updated_at: o.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { booking, manageToken };
}

/** A booking of a pro by id. */
export async function findBooking(db: Db, proId: string, id: string): Promise<Booking | undefined> {
  return db.selectFrom('bookings').selectAll().where('id', '=', id).where('pro_id', '=', proId).executeTakeFirst();
}

/**
 * The booking a manage token opens and its pro, both locked, the pro's row first (the lock
 * order everywhere): the token is hashed once and names the rows of both statements.
 */
export async function lockBookingByToken(trx: Db, manageToken: string): Promise<{ booking: Booking; pro: Pro } | undefined> {
  const tokenHash = hashSecret(manageToken);
  const pro = await trx
    .selectFrom('pros')
    .selectAll()
    .where('id', '=', (eb) => eb.selectFrom('bookings').select('pro_id').where('manage_token_hash', '=', tokenHash))
    .forUpdate()
    .executeTakeFirst();
  if (!pro) return undefined;
  const booking = await trx.selectFrom('bookings').selectAll().where('manage_token_hash', '=', tokenHash).forUpdate().executeTakeFirst();
  return booking && { booking, pro };
}

/** Locks a booking's row (after its pro's: the lock order everywhere), of that pro only when one is named. */
export async function lockBooking(trx: Db, bookingId: string, proId?: string): Promise<Booking | undefined> {
  let q = trx.selectFrom('bookings').selectAll().where('id', '=', bookingId);
  if (proId !== undefined) q = q.where('pro_id', '=', proId);
  return q.forUpdate().executeTakeFirst();
}

/** Several bookings of a pro, locked in one statement (in id order, so two lockers never wait on each other in a circle). */
export async function lockBookings(trx: Db, bookingIds: string[], proId: string): Promise<Booking[]> {
  if (bookingIds.length === 0) return [];
  return trx.selectFrom('bookings').selectAll().where('id', 'in', bookingIds).where('pro_id', '=', proId).orderBy('id').forUpdate().execute();
}

/** A job's next version, taken in the statement that changes its time or state (its calendar SEQUENCE). */
const nextRevision = sql<number>`revision + 1`;

/** Cancels a booking still live; a booking already changed is left alone (undefined). */
export async function markCancelled(trx: Db, bookingId: string, by: CancelledBy, now: Date): Promise<Booking | undefined> {
  return trx
    .updateTable('bookings')
    .set({ status: 'cancelled', cancelled_at: now, cancelled_by: by, updated_at: now, revision: nextRevision })
    .where('id', '=', bookingId)
    .where('status', '=', 'booked')
    .returningAll()
    .executeTakeFirst();
}

/** Moves a booking to a new time and the crew taking it then; the exclusion constraint refuses an overlap with any other job of that crew. */
export async function moveBooking(trx: Db, bookingId: string, to: { start: Date; end: Date; blockedUntil: Date; crewId: string; now: Date }): Promise<Booking> {
  return trx
    .updateTable('bookings')
    .set({ starts_at: to.start, ends_at: to.end, blocked_until: to.blockedUntil, crew_id: to.crewId, updated_at: to.now, revision: nextRevision })
    .where('id', '=', bookingId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The visits of a series that have not ended, soonest first. */
export async function upcomingVisits(db: Db, seriesId: string, now: Date, limit = 60): Promise<Booking[]> {
  return db.selectFrom('bookings').selectAll().where('series_id', '=', seriesId).where('ends_at', '>', now).orderBy('starts_at').limit(limit).execute();
}

/** The booked jobs of one crew or one series, soonest first: the callers say from when (and whether to lock them). */
export function bookedJobsOf(db: Db, of: 'crew_id' | 'series_id', id: string) {
  return db.selectFrom('bookings').selectAll().where(of, '=', id).where('status', '=', 'booked').orderBy('starts_at');
}

/** Cancels the booked visits of a series starting in [from, before): the weeks a pause skips. */
export async function cancelVisitsBetween(trx: Db, seriesId: string, c: { from: Date; before: Date; by: CancelledBy; now: Date }): Promise<Booking[]> {
  const { by, now } = c;
  return trx
    .updateTable('bookings')
    .set({ status: 'cancelled', cancelled_at: now, cancelled_by: by, updated_at: now, revision: nextRevision })
    .where('series_id', '=', seriesId)
    .where('status', '=', 'booked')
    .where('starts_at', '>=', c.from)
    .where('starts_at', '<', c.before)
    .returningAll()
    .execute();
}

/** Ends a series: its booked visits after `after` are cancelled and it books no more. */
export async function cancelSeriesFrom(trx: Db, seriesId: string, c: { after: Date; by: CancelledBy; now: Date }): Promise<Booking[]> {
  const { after, by, now } = c;
  const cancelled = await trx
    .updateTable('bookings')
    .set({ status: 'cancelled', cancelled_at: now, cancelled_by: by, updated_at: now, revision: nextRevision })
    .where('series_id', '=', seriesId)
    .where('status', '=', 'booked')
    .where('starts_at', '>', after)
    .returningAll()
    .execute();
  await trx.updateTable('series').set({ ended_at: now }).where('id', '=', seriesId).where('ended_at', 'is', null).execute();
  return cancelled;
}

/** Records a no-show, waiving the fee when the caller says so. */
export async function markNoShow(trx: Db, bookingId: string, o: { waiveFee: boolean; now: Date }): Promise<Booking> {
  const { now } = o;
  return trx
    .updateTable('bookings')
    .set({ status: 'no_show', no_show_reported_at: now, fee_waived_at: o.waiveFee ? now : null, updated_at: now, revision: nextRevision })
    .where('id', '=', bookingId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Live jobs that have not ended yet, soonest first (of one crew when named). */
export async function upcomingBookings(db: Db, proId: string, now: Date, o: { limit?: number; crewId?: string } = {}): Promise<Booking[]> {
  return bookedBetween(db, proId, { from: now, to: null, limit: o.limit ?? 100, crewId: o.crewId });
}

/** Live jobs that overlap [from, to) (to: null for no end), soonest first (of one crew when named; with the no-shows reported when asked). */
export async function bookedBetween(
  db: Db,
  proId: string,
  range: { from: Date; to: Date | null; limit?: number; crewId?: string; noShows?: boolean },
): Promise<Booking[]> {
  const { from, to, limit = 100 } = range;
  let q = db
    .selectFrom('bookings')
    .selectAll()
    .where('pro_id', '=', proId)
    .where('status', 'in', range.noShows ? ['booked', 'no_show'] : ['booked'])
    .where('ends_at', '>', from);
  if (to) q = q.where('starts_at', '<', to);
  if (range.crewId !== undefined) q = q.where('crew_id', '=', range.crewId);
  return q.orderBy('starts_at').limit(limit).execute();
}

/** A pro's row as row_to_json gives it: its instants as text. */
type ProJson = Omit<Pro, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string };

/** The booking a manage token opens, with its pro, in one read (the token hashed once). */
export async function bookingByToken(db: Db, manageToken: string): Promise<{ booking: Booking; pro: Pro } | undefined> {
  const row = await db
    .selectFrom('bookings as b')
    .innerJoin('pros as p', 'p.id', 'b.pro_id')
    .selectAll('b')
    .select(sql<ProJson>`row_to_json(p)`.as('pro'))
    .where('b.manage_token_hash', '=', hashSecret(manageToken))
    .executeTakeFirst();
  if (!row) return undefined;
  const { pro, ...booking } = row;
  return { booking, pro: { ...pro, created_at: new Date(pro.created_at), updated_at: new Date(pro.updated_at) } };
}

/** A customer account's bookings, newest first, with each cleaner's time zone and name. */
export async function bookingsOfAccount(db: Db, email: string, limit = 100) {
  return db
    .selectFrom('bookings as b')
    .innerJoin('pros as p', 'p.id', 'b.pro_id')
    .selectAll('b')
    .select(['p.timezone as pro_timezone', 'p.name as pro_name', 'p.phone as pro_phone', 'p.email as pro_email', 'p.website as pro_website'])
    .where('b.account_email', '=', email)
    .orderBy('b.created_at', 'desc')
    .limit(limit)
    .execute();
}

/** Gives a booking that has a manage token a new one, returned once; the old one stops working at once. */
export async function replaceManageToken(db: Db, bookingId: string): Promise<string | null> {
  const token = newToken();
  const res = await db
    .updateTable('bookings')
    .set({ manage_token_hash: hashSecret(token) })
    .where('id', '=', bookingId)
    .where('manage_token_hash', 'is not', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0 ? token : null;
}

/** What the dispatch board draws of a job: when, which crew, who, where, what kind of clean. */
export type BoardJob = Pick<Booking, 'id' | 'crew_id' | 'crew_name' | 'starts_at' | 'ends_at' | 'customer_name' | 'address' | 'clean_type'>;

/** Booked jobs that start in [from, to), soonest first, at most `limit`: a week of the dispatch board, on the (pro_id, starts_at) index, only the columns it draws. */
export async function bookedStartingBetween(db: Db, proId: string, range: { from: Date; to: Date; limit: number }): Promise<BoardJob[]> {
  return db
    .selectFrom('bookings')
    .select(['id', 'crew_id', 'crew_name', 'starts_at', 'ends_at', 'customer_name', 'address', 'clean_type'])
    .where('pro_id', '=', proId)
    .where('status', '=', 'booked')
    .where('starts_at', '>=', range.from)
    .where('starts_at', '<', range.to)
    .orderBy('starts_at')
    .limit(range.limit)
    .execute();
}
