import {
  CLEAN_TYPE_LABELS,
  InvalidInputError,
  NotFoundError,
  formatLabel,
  formatLocalIso,
  formatUsd,
  nearestOpenTimes,
  requireFirmQuote,
  whyNotOpen,
  type BusyBlock,
  type Job,
  type TimeOff,
} from '@frontdesk/domain';
import { sql } from 'kysely';
import type { Db } from '../connect';
import { newId } from '../ids';
import type { Booking, BookingChannel } from '../tables/bookings';
import type { Pro } from '../tables/pros';
import { appendEvent } from './events';
import { scheduleRules } from './pros';

const DAY = 24 * 60 * 60 * 1000;

export interface BusyTimes {
  busy: BusyBlock[];
  timeOff: TimeOff[];
}

/**
 * Live bookings and time off of many pros that touch [from, to), as the availability
 * rules see them. One round trip whatever the number of pros, and instants come back as
 * epoch milliseconds: parsing hundreds of timestamps into Dates was the largest cost.
 */
export async function loadBusyMany(db: Db, proIds: string[], from: Date, to: Date): Promise<Map<string, BusyTimes>> {
  const byPro = new Map<string, BusyTimes>(proIds.map((id) => [id, { busy: [], timeOff: [] }]));
  if (proIds.length === 0) return byPro;
  // One row holding one JSON array: a single native parse instead of thousands of row parses.
  // Served by the partial covering index bookings_live_pro_range (an index-only scan).
  const { rows } = await sql<{ busy: [string, 'b' | 'o', number, number][] }>`
    SELECT coalesce(json_agg(json_build_array(pro_id, kind, s, e)), '[]'::json) AS busy FROM (
      SELECT pro_id, 'b' AS kind,
             (extract(epoch FROM starts_at) * 1000)::float8 AS s,
             (extract(epoch FROM blocked_until) * 1000)::float8 AS e
        FROM bookings
       WHERE pro_id = ANY(${proIds}::text[]) AND status <> 'cancelled' AND starts_at < ${to} AND blocked_until > ${from}
      UNION ALL
      SELECT pro_id, 'o', (extract(epoch FROM starts_at) * 1000)::float8, (extract(epoch FROM ends_at) * 1000)::float8
        FROM time_off
       WHERE pro_id = ANY(${proIds}::text[]) AND starts_at < ${to} AND ends_at > ${from}
    ) t`.execute(db);
  for (const [proId, kind, s, e] of rows[0]!.busy) {
    const times = byPro.get(proId)!;
    if (kind === 'b') times.busy.push({ start: new Date(s), blockedUntil: new Date(e) });
    else times.timeOff.push({ start: new Date(s), end: new Date(e) });
  }
  return byPro;
}

export async function loadBusy(db: Db, proId: string, from: Date, to: Date): Promise<BusyTimes> {
  return (await loadBusyMany(db, [proId], from, to)).get(proId)!;
}

export interface BookingRequest {
  proId: string;
  job: Job;
  start: Date;
  customer: { name: string; phone: string | null; email: string | null };
  address: string;
  zip: string;
  notes: string | null;
  accessDetails: string | null;
  channel: BookingChannel;
  clientName: string | null;
  leadId: string | null;
  feeCents: number;
  manageTokenHash: Buffer | null;
  /** The verified email of the customer account the booking belongs to. */
  accountEmail: string | null;
  /** The total the customer was shown; a different current price refuses the booking. */
  expectedTotalCents: number | null;
  now: Date;
}

const isExclusionViolation = (err: unknown) => (err as { code?: string }).code === '23P01';

function justTaken(label: string): InvalidInputError {
  return new InvalidInputError(`${label} was just taken by another booking. Pick another time from the open times.`);
}
const justTakenByAnotherWriter = () =>
  new InvalidInputError('That time was just taken by another booking. Pick another time from the open times.');

/** Was the time taken by a booking made in the last minute (a lost race, not an old booking)? */
async function takenJustNow(db: Db, proId: string, start: Date, minutes: number, bufferMinutes: number, now: Date): Promise<boolean> {
  const blockedUntil = new Date(start.getTime() + (minutes + bufferMinutes) * 60_000);
  const row = await db
    .selectFrom('bookings')
    .select('id')
    .where('pro_id', '=', proId)
    .where('status', '<>', 'cancelled')
    .where('starts_at', '<', blockedUntil)
    .where('blocked_until', '>', start)
    .where('created_at', '>', new Date(now.getTime() - 60_000))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Books a start on a pro's schedule. The pro's row is locked first, so bookings of one pro
 * are checked and written one at a time and a refusal can say why; the exclusion
 * constraint on `bookings` still guarantees no overlap whatever path writes.
 * Lock order everywhere: the pro's row, then booking rows.
 */
export async function createBooking(db: Db, req: BookingRequest): Promise<{ booking: Booking; pro: Pro }> {
  try {
    return await db.transaction().execute(async (trx) => {
      const pro = await trx.selectFrom('pros').selectAll().where('id', '=', req.proId).forUpdate().executeTakeFirst();
      if (!pro) throw new NotFoundError(`No cleaner with id ${req.proId}.`);
      const quote = requireFirmQuote(req.job, pro.price_list);
      if (req.expectedTotalCents !== null && req.expectedTotalCents !== quote.total_cents) {
        throw new InvalidInputError(
          `The price changed: this job is now ${formatUsd(quote.total_cents)}, not the ${formatUsd(req.expectedTotalCents)} you were shown. Nothing was booked; confirm the new price with the customer first.`,
        );
      }
      if (req.leadId !== null) {
        const lead = await trx
          .selectFrom('leads')
          .select('id')
          .where('id', '=', req.leadId)
          .where('pro_id', '=', pro.id)
          .executeTakeFirst();
        if (!lead) throw new NotFoundError(`No lead with id ${req.leadId} on this business.`);
      }

      const rules = scheduleRules(pro);
      // A start in the past is refused before anything else, and its alternatives start from now.
      const around = Math.max(req.start.getTime(), req.now.getTime());
      const { busy, timeOff } = await loadBusy(trx, pro.id, new Date(around - 2 * DAY), new Date(around + 3 * DAY));
      const query = { rules, durationMinutes: quote.duration_minutes, now: req.now, busy, timeOff };
      const why = whyNotOpen(query, req.start);
      if (why) {
        const label = formatLabel(req.start, pro.timezone, req.now);
        if (why.reason === 'taken' && (await takenJustNow(trx, pro.id, req.start, quote.duration_minutes, pro.travel_buffer_minutes, req.now))) {
          throw justTaken(label);
        }
        const near = nearestOpenTimes(query, req.start).map((o) => formatLabel(o.start, pro.timezone, req.now));
        throw new InvalidInputError(
          `${why.message}${near.length ? ` The nearest open times: ${near.join('; ')}.` : ' There is no open time within a day of it; ask open_times for other days.'}`,
        );
      }

      const end = new Date(req.start.getTime() + quote.duration_minutes * 60_000);
      const booking = await trx
        .insertInto('bookings')
        .values({
          id: newId('bk'),
          pro_id: pro.id,
          lead_id: req.leadId,
          channel: req.channel,
          client_name: req.clientName,
          starts_at: req.start,
          ends_at: end,
          blocked_until: new Date(end.getTime() + pro.travel_buffer_minutes * 60_000),
          customer_name: req.customer.name,
          customer_phone: req.customer.phone,
          customer_email: req.customer.email,
          address: req.address,
          zip: req.zip,
          notes: req.notes,
          access_details: req.accessDetails,
          bedrooms: req.job.bedrooms,
          bathrooms: req.job.bathrooms,
          clean_type: req.job.clean_type,
          sqft: req.job.sqft,
          frequency: req.job.frequency,
          add_ons: req.job.add_ons,
          pets: req.job.pets,
          price_cents: quote.total_cents,
          quote: JSON.stringify(quote),
          fee_cents: req.feeCents,
          fee_waived_at: null,
          manage_token_hash: req.manageTokenHash,
          account_email: req.accountEmail,
          cancelled_at: null,
          cancelled_by: null,
          no_show_reported_at: null,
          created_at: req.now,
          updated_at: req.now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();

      if (req.leadId !== null) {
        await trx.updateTable('leads').set({ status: 'booked', updated_at: req.now }).where('id', '=', req.leadId).execute();
      }
      const label = formatLabel(booking.starts_at, pro.timezone);
      const via = req.channel === 'book' ? 'through the booking service' : 'on your schedule';
      const by = req.clientName ? ` by ${req.clientName}` : '';
      const message = `New booking${by} ${via}: ${booking.customer_name}, ${label}, ${CLEAN_TYPE_LABELS[req.job.clean_type].toLowerCase()} (${req.job.bedrooms} bd / ${req.job.bathrooms} ba), ${formatUsd(quote.total_cents)}.`;
      if (req.channel === 'book') {
        // A customer's booking is news for the pro: it waits, unread, on the schedule.
        await trx
          .insertInto('notifications')
          .values({ id: newId('ntf'), pro_id: pro.id, booking_id: booking.id, kind: 'booking.created', message, created_at: req.now, read_at: null })
          .execute();
      }
      await appendEvent(trx, pro.id, 'booking.created', {
        booking_id: booking.id,
        start: formatLocalIso(booking.starts_at, pro.timezone),
        label,
        customer_name: booking.customer_name,
        channel: req.channel,
        client_name: req.clientName,
        total: quote.total_cents / 100,
        message,
      }, req.now);
      return { booking, pro };
    });
  } catch (err) {
    // Another writer (another service or replica) got there between our check and insert.
    if (isExclusionViolation(err)) throw justTakenByAnotherWriter();
    throw err;
  }
}

export type CancelledBy = 'pro' | 'customer';

/**
 * Cancels a live booking found by `where`. Locks the pro's row before the booking's (the
 * same order as createBooking) and changes only a row still `booked`, so cancelling twice
 * writes once.
 */
export async function cancelBooking(
  db: Db,
  find: { id: string; proId: string } | { manageTokenHash: Buffer },
  by: CancelledBy,
  now: Date,
): Promise<{ booking: Booking; pro: Pro }> {
  return db.transaction().execute(async (trx) => {
    let q = trx.selectFrom('bookings').selectAll();
    q = 'id' in find ? q.where('id', '=', find.id).where('pro_id', '=', find.proId) : q.where('manage_token_hash', '=', find.manageTokenHash);
    const found = await q.executeTakeFirst();
    if (!found) throw new NotFoundError('id' in find ? `No booking with id ${find.id} on this schedule.` : 'No booking with that manage_token.');
    const pro = await trx.selectFrom('pros').selectAll().where('id', '=', found.pro_id).forUpdate().executeTakeFirstOrThrow();
    const booking = await trx.selectFrom('bookings').selectAll().where('id', '=', found.id).forUpdate().executeTakeFirstOrThrow();
    const label = formatLabel(booking.starts_at, pro.timezone);
    if (booking.status === 'cancelled') {
      throw new InvalidInputError(`Booking ${booking.id} (${label}) is already cancelled; nothing changed.`);
    }
    if (booking.status === 'no_show') {
      throw new InvalidInputError(`Booking ${booking.id} (${label}) was reported as a no-show; it cannot be cancelled.`);
    }
    if (booking.starts_at.getTime() <= now.getTime()) {
      throw new InvalidInputError(
        `Booking ${booking.id} started at ${label}; a job that has started cannot be cancelled. If the customer did not show up, report a no-show.`,
      );
    }
    const cancelled = await trx
      .updateTable('bookings')
      .set({ status: 'cancelled', cancelled_at: now, cancelled_by: by, updated_at: now })
      .where('id', '=', booking.id)
      .where('status', '=', 'booked')
      .returningAll()
      .executeTakeFirstOrThrow();
    const message = `Booking cancelled by the ${by === 'pro' ? 'business' : 'customer'}: ${booking.customer_name}, ${label}. The time is open again.`;
    if (by === 'customer') {
      await trx
        .insertInto('notifications')
        .values({ id: newId('ntf'), pro_id: pro.id, booking_id: booking.id, kind: 'booking.cancelled', message, created_at: now, read_at: null })
        .execute();
    }
    await appendEvent(trx, pro.id, 'booking.cancelled', {
      booking_id: booking.id,
      start: formatLocalIso(booking.starts_at, pro.timezone),
      label,
      customer_name: booking.customer_name,
      cancelled_by: by,
      message,
    }, now);
    return { booking: cancelled, pro };
  });
}

/** Live jobs that have not ended yet, soonest first. */
export async function upcomingBookings(db: Db, proId: string, now: Date, limit = 100): Promise<Booking[]> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('pro_id', '=', proId)
    .where('status', '=', 'booked')
    .where('ends_at', '>', now)
    .orderBy('starts_at')
    .limit(limit)
    .execute();
}

/**
 * Records that the customer did not show up: only for a live booking whose start has
 * passed. A customer-made booking's fee is waived; a pro-made one never had a fee.
 */
export async function reportNoShow(db: Db, proId: string, bookingId: string, now: Date): Promise<{ booking: Booking; pro: Pro }> {
  return db.transaction().execute(async (trx) => {
    const booking = await trx.selectFrom('bookings').selectAll().where('id', '=', bookingId).where('pro_id', '=', proId).forUpdate().executeTakeFirst();
    if (!booking) throw new NotFoundError(`No booking with id ${bookingId} on this schedule.`);
    const pro = await trx.selectFrom('pros').selectAll().where('id', '=', proId).executeTakeFirstOrThrow();
    const label = formatLabel(booking.starts_at, pro.timezone);
    if (booking.status === 'cancelled') {
      throw new InvalidInputError(`Booking ${booking.id} (${label}) was cancelled; there is no no-show to report.`);
    }
    if (booking.status === 'no_show') {
      throw new InvalidInputError(`A no-show was already reported for booking ${booking.id} (${label}); nothing changed.`);
    }
    if (booking.starts_at.getTime() > now.getTime()) {
      throw new InvalidInputError(`Booking ${booking.id} starts ${label}; a no-show can be reported only after the start.`);
    }
    const updated = await trx
      .updateTable('bookings')
      .set({ status: 'no_show', no_show_reported_at: now, fee_waived_at: booking.fee_cents > 0 ? now : null, updated_at: now })
      .where('id', '=', booking.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { booking: updated, pro };
  });
}

/** The booking a manage token opens, or 404. */
export async function bookingByToken(db: Db, manageTokenHash: Buffer): Promise<{ booking: Booking; pro: Pro }> {
  const booking = await db.selectFrom('bookings').selectAll().where('manage_token_hash', '=', manageTokenHash).executeTakeFirst();
  if (!booking) throw new NotFoundError('No booking with that manage_token. Check that it was copied whole.');
  const pro = await db.selectFrom('pros').selectAll().where('id', '=', booking.pro_id).executeTakeFirstOrThrow();
  return { booking, pro };
}

/** A customer account's bookings, newest first, with each cleaner's time zone and name. */
export async function bookingsOfAccount(db: Db, email: string, limit = 100) {
  return db
    .selectFrom('bookings as b')
    .innerJoin('pros as p', 'p.id', 'b.pro_id')
    .selectAll('b')
    .select(['p.timezone as pro_timezone', 'p.name as pro_name', 'p.phone as pro_phone', 'p.email as pro_email', 'p.website as pro_website'])
    .where('b.account_email', '=', email.toLowerCase())
    .orderBy('b.created_at', 'desc')
    .limit(limit)
    .execute();
}

/** Gives a booking a new manage token; the old one stops working at once. */
export async function replaceManageToken(db: Db, bookingId: string, manageTokenHash: Buffer): Promise<void> {
  await db.updateTable('bookings').set({ manage_token_hash: manageTokenHash }).where('id', '=', bookingId).where('manage_token_hash', 'is not', null).execute();
}
