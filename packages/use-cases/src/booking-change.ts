import { formatLabel, justTaken, nearestOpenTimes, noBooking, noBookingWithToken, noSuchVisit, notOpen, whyNotOpen } from '@frontdesk/domain';
import {
  appendEvent,
  bookedSince,
  insertNotification,
  loadBusy,
  lockBooking,
  lockBookingByToken,
  lockPro,
  scheduleRules,
  type Booking,
  type Db,
  type Pro,
} from '@frontdesk/db';

/**
 * What every change to a booking shares: how the booking is found and locked, how a start
 * is judged open, and how the change is told to the business.
 */

const DAY = 86_400_000;
/** A booking this recent that holds the time lost a race, rather than being there all along. */
const RACE_WINDOW_MS = 60_000;

/** A booking and its pro, both locked (the pro's row first: the lock order everywhere). */
export interface LockedBooking {
  pro: Pro;
  booking: Booking;
}

/** Who asks for a change, and which booking: the business by id, or a customer by the manage token (and a visit of its series). */
export type BookingLocator = { by: 'pro'; proId: string; bookingId: string } | { by: 'customer'; manageToken: string; visitId?: string };

/** A job on a business's own schedule, locked after its pro. */
async function lockJob(trx: Db, proId: string, bookingId: string): Promise<LockedBooking> {
  const pro = await lockPro(trx, proId);
  const booking = pro && (await lockBooking(trx, bookingId, proId));
  if (!pro || !booking) throw noBooking(bookingId);
  return { pro, booking };
}

/**
 * The booking a manage token opens, locked after its pro in one locked read, or another visit
 * of its series named by `visitId`; a visit of any other booking is not found.
 */
async function lockManaged(trx: Db, manageToken: string, visitId: string | undefined): Promise<LockedBooking> {
  const opened = await lockBookingByToken(trx, manageToken);
  if (!opened) throw noBookingWithToken();
  if (visitId === undefined || visitId === opened.booking.id) return opened;
  const visit = await lockBooking(trx, visitId, opened.pro.id);
  if (!visit || visit.series_id === null || visit.series_id !== opened.booking.series_id) throw noSuchVisit(visitId);
  return { pro: opened.pro, booking: visit };
}

/** The booking a change acts on, locked after its pro. */
export function lockBookingToChange(trx: Db, at: BookingLocator): Promise<LockedBooking> {
  return at.by === 'pro' ? lockJob(trx, at.proId, at.bookingId) : lockManaged(trx, at.manageToken, at.visitId);
}

/** What judging a start needs: the business (locked), the start, how long the job runs, the clock, and a booking moving out of its own way. */
export interface StartToJudge {
  pro: Pro;
  start: Date;
  durationMinutes: number;
  now: Date;
  moving?: Booking;
}

/**
 * The slot a job from `start` would hold, if the start is open by the same rules open_times
 * lists by (a booking being moved does not stand in its own way); otherwise the refusal,
 * naming a lost race as such, or the reason with the nearest open times.
 */
export async function requireOpenStart(trx: Db, s: StartToJudge): Promise<{ end: Date; blockedUntil: Date }> {
  const { pro, start, now, moving } = s;
  // A start in the past is refused before anything else, and its alternatives start from now.
  const around = Math.max(start.getTime(), now.getTime());
  const { busy, timeOff } = await loadBusy(trx, pro.id, new Date(around - 2 * DAY), new Date(around + 3 * DAY));
  const others = moving
    ? busy.filter((b) => !(b.start.getTime() === moving.starts_at.getTime() && b.blockedUntil.getTime() === moving.blocked_until.getTime()))
    : busy;
  const query = { rules: scheduleRules(pro), durationMinutes: s.durationMinutes, now, busy: others, timeOff };
  const why = whyNotOpen(query, start);
  const end = new Date(start.getTime() + s.durationMinutes * 60_000);
  const blockedUntil = new Date(end.getTime() + pro.travel_buffer_minutes * 60_000);
  if (why) {
    const label = formatLabel(start, pro.timezone, now);
    if (why.reason === 'taken' && (await bookedSince(trx, pro.id, { start, blockedUntil }, new Date(now.getTime() - RACE_WINDOW_MS)))) throw justTaken(label);
    throw notOpen(
      why.message,
      nearestOpenTimes(query, start).map((o) => formatLabel(o.start, pro.timezone, now)),
    );
  }
  return { end, blockedUntil };
}

/** A change the business hears of: an event in its feed, and when the customer made it, a notification too. */
export async function recordChange(
  trx: Db,
  c: { pro: Pro; bookingId: string; kind: string; by: 'pro' | 'customer'; message: string; payload: Record<string, unknown>; now: Date },
): Promise<void> {
  if (c.by === 'customer') await insertNotification(trx, { proId: c.pro.id, bookingId: c.bookingId, kind: c.kind, message: c.message, now: c.now });
  await appendEvent(trx, c.pro.id, { kind: c.kind, payload: { ...c.payload, message: c.message }, at: c.now });
}
