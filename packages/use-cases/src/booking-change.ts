import { formatLabel, justTaken, nearestOpenTimes, noBooking, noBookingWithToken, notOpen, whyNotOpen } from '@frontdesk/domain';
import {
  appendEvent,
  bookedSince,
  findBooking,
  insertNotification,
  loadBusy,
  lockBooking,
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

/** A booking by id on a pro's schedule or by its manage token, locked after its pro's row (the lock order everywhere). */
export async function lockBookingToChange(trx: Db, find: { id: string; proId: string } | { manageTokenHash: Buffer }): Promise<{ pro: Pro; booking: Booking }> {
  const found = await findBooking(trx, find);
  if (!found) throw 'id' in find ? noBooking(find.id) : noBookingWithToken();
  const pro = (await lockPro(trx, found.pro_id))!;
  return { pro, booking: (await lockBooking(trx, found.id))! };
}

/**
 * The slot a job from `start` would hold, if the start is open by the same rules open_times
 * lists by (a booking being moved does not stand in its own way); otherwise the refusal,
 * naming a lost race as such, or the reason with the nearest open times.
 */
export async function requireOpenStart(
  trx: Db,
  pro: Pro,
  start: Date,
  durationMinutes: number,
  now: Date,
  moving?: Booking,
): Promise<{ end: Date; blockedUntil: Date }> {
  // A start in the past is refused before anything else, and its alternatives start from now.
  const around = Math.max(start.getTime(), now.getTime());
  const { busy, timeOff } = await loadBusy(trx, pro.id, new Date(around - 2 * DAY), new Date(around + 3 * DAY));
  const others = moving
    ? busy.filter((b) => !(b.start.getTime() === moving.starts_at.getTime() && b.blockedUntil.getTime() === moving.blocked_until.getTime()))
    : busy;
  const query = { rules: scheduleRules(pro), durationMinutes, now, busy: others, timeOff };
  const why = whyNotOpen(query, start);
  const end = new Date(start.getTime() + durationMinutes * 60_000);
  const blockedUntil = new Date(end.getTime() + pro.travel_buffer_minutes * 60_000);
  if (why) {
    const label = formatLabel(start, pro.timezone, now);
    if (why.reason === 'taken' && (await bookedSince(trx, pro.id, start, blockedUntil, new Date(now.getTime() - RACE_WINDOW_MS)))) throw justTaken(label);
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
  await appendEvent(trx, c.pro.id, c.kind, { ...c.payload, message: c.message }, c.now);
}
