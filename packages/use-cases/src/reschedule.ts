import {
  formatLabel,
  formatLocalIso,
  justTakenByAnotherWriter,
  notLiveCannotMove,
  rescheduleMessage,
  sameStart,
  seriesMoveConflicts,
  startedCannotMove,
  addDays,
  localDate,
  laterVisitsMoved,
  parseStart,
  daysFromTo,
  shiftedWith,
} from '@frontdesk/domain';
import { conflictLine, judgeStarts, keepSeriesOrder, localMinutesOf } from './series';
import { lockBookingToChange, recordChange, requireOpenStart, type BookingLocator } from './booking-change';
import { mailMoved, mailMovedByBusiness, type MailLinks } from './booking-mail';
import { bookedVisitsFrom, isOverlapViolation, loadBusy, lockSeries, moveBooking, updateSeries, type Booking, type Db, type Pro } from '@frontdesk/db';

const DAY = 86_400_000;

/**
 * Moves a live booking to a new start in one transaction: the new time is taken and the old
 * freed, or nothing changes. The pro's row is locked first, then the booking's (the order
 * every writer uses); the new start is judged by the same rules as a new booking, with the
 * booking's own time not counted as busy, and the exclusion constraint still refuses any
 * overlap another writer made meanwhile. The job keeps its booked price and length.
 */
export interface Rescheduled {
  booking: Booking;
  previous: Booking;
  pro: Pro;
  /** Later visits of the series moved with it (and_following). */
  followingMoved: number;
  /** Whether the customer was emailed the new time (only when the business asked, and may). */
  customerNotified: boolean;
}

export interface MoveRequest {
  /** The new start as the caller gave it, read in the business's zone once the booking is found. */
  start: string;
  andFollowing?: boolean;
  /** A customer's move on the book host: where their confirmation mail points (no customer mail without it). */
  mail?: MailLinks;
  /** The business asks for its customer to be emailed the new time (never a platform lead's customer). */
  notifyCustomer?: boolean;
  now: Date;
}

export async function rescheduleBooking(db: Db, at: BookingLocator, move: MoveRequest): Promise<Rescheduled> {
  const { now, start: startText } = move;
  const { by } = at;
  try {
    return await db.transaction().execute(async (trx) => {
      const { pro, booking: previous } = await lockBookingToChange(trx, at);
      const start = parseStart(startText, pro.timezone);
      const oldLabel = formatLabel(previous.starts_at, pro.timezone, now);
      if (previous.status !== 'booked') throw notLiveCannotMove(previous.id, oldLabel, previous.status);
      if (previous.starts_at.getTime() <= now.getTime()) throw startedCannotMove(previous.id, oldLabel);
      if (previous.starts_at.getTime() === start.getTime()) throw sameStart(oldLabel);
      await keepSeriesOrder(trx, { pro, visit: previous, start, andFollowing: Boolean(move.andFollowing), now });

      const moved =
        move.andFollowing && previous.series_id
          ? await moveSeriesFrom(trx, { pro, first: previous, start, now })
          : [await moveOne(trx, { pro, previous, start, now })];
      const booking = moved[0]!;
      const newLabel = formatLabel(start, pro.timezone, now);
      const following = moved.length - 1;
      const message = `${rescheduleMessage(by, booking.customer_name, oldLabel, newLabel)}${laterVisitsMoved(following)}`;
      await recordChange(trx, {
        pro,
        booking,
        kind: 'booking.rescheduled',
        by,
        message,
        payload: {
          booking_id: booking.id,
          series_id: booking.series_id,
          from: formatLocalIso(previous.starts_at, pro.timezone),
          to: formatLocalIso(start, pro.timezone),
          label: newLabel,
          and_following: following > 0,
          visits_moved: moved.length,
          customer_name: booking.customer_name,
          rescheduled_by: by,
        },
        now,
      });
      await mailMoved(trx, { by, pro, booking, previous, laterMoved: following, manageToken: at.by === 'customer' ? at.manageToken : null }, move.mail, now);
      const told =
        by === 'pro' && move.notifyCustomer === true && (await mailMovedByBusiness(trx, { pro, booking, previous, laterMoved: following }, move.mail, now));
      return { booking, previous, pro, followingMoved: following, customerNotified: told };
    });
  } catch (err) {
    if (isOverlapViolation(err)) throw justTakenByAnotherWriter();
    throw err;
  }
}

/** Moves one booking, its own time not standing in its way; refuses with nearby open times. */
async function moveOne(trx: Db, m: { pro: Pro; previous: Booking; start: Date; now: Date }): Promise<Booking> {
  const { pro, previous, start, now } = m;
  const duration = previous.ends_at.getTime() - previous.starts_at.getTime();
  const held = await requireOpenStart(trx, { pro, start, durationMinutes: duration / 60_000, now, moving: previous, prefer: previous.crew_id });
  return moveBooking(trx, previous.id, { start, ...held, now });
}

/**
 * Moves a visit of a series and every later booked visit by the same number of days to the
 * new local time, so the series keeps its rhythm on the new weekday. Every new start is
 * checked (the moving visits do not stand in each other's way); one that cannot be held
 * refuses the whole move. Rows are moved in the order that never lands one on another
 * still in place, and the series' anchor and horizon move with them.
 */
async function moveSeriesFrom(trx: Db, m: { pro: Pro; first: Booking; start: Date; now: Date }): Promise<Booking[]> {
  const { pro, first, start, now } = m;
  const visits = await bookedVisitsFrom(trx, first.series_id!, first.starts_at);
  const moved = { from: localDate(first.starts_at, pro.timezone), to: localDate(start, pro.timezone) };
  const shiftDays = daysFromTo(moved.from, moved.to);
  const dates = shiftedWith(
    visits.map((v) => localDate(v.starts_at, pro.timezone)),
    moved,
  );
  const minutes = localMinutesOf(start, pro.timezone);
  const last = visits[visits.length - 1]!;
  const { crews } = await loadBusy(trx, pro.id, {
    from: new Date(Math.min(start.getTime(), first.starts_at.getTime()) - 2 * DAY),
    to: new Date(last.starts_at.getTime() + (Math.abs(shiftDays) + 3) * DAY),
    bookingIds: true,
  });
  const moving = new Set(visits.map((v) => v.id));
  const others = crews.map((c) => ({ ...c, busy: c.busy.filter((b) => !moving.has(b.bookingId!)) }));
  const wanted = visits.map((v, i) => ({
    date: dates[i]!,
    minutes,
    durationMinutes: (v.ends_at.getTime() - v.starts_at.getTime()) / 60_000,
    prefer: v.crew_id,
  }));
  const { accepted, skipped } = judgeStarts(pro, wanted, { crews: others }, now);
  if (skipped.length) throw seriesMoveConflicts(skipped.map(conflictLine));
  const plans = accepted.map((a) => ({ ...a, visit: visits[a.index]! }));
  const ordered = start.getTime() > first.starts_at.getTime() ? [...plans].reverse() : plans;
  const done = new Map<string, Booking>();
  for (const p of ordered)
    done.set(p.visit.id, await moveBooking(trx, p.visit.id, { start: p.start, end: p.end, blockedUntil: p.blockedUntil, crewId: p.crewId, now }));
  const series = (await lockSeries(trx, first.series_id!))!;
  await updateSeries(trx, series.id, {
    local_minutes: minutes,
    first_date: localDate(start, pro.timezone),
    planned_through: addDays(series.planned_through, shiftDays),
    // A pause ahead keeps skipping the same visits, now on their new days.
    paused_dates: series.paused_dates.map((d) => (d >= moved.from ? addDays(d, shiftDays) : d)),
  });
  return plans.map((p) => done.get(p.visit.id)!);
}
