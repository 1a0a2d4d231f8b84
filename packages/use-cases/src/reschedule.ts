import {
  formatLabel,
  formatLocalIso,
  justTaken,
  justTakenByAnotherWriter,
  nearestOpenTimes,
  noBooking,
  noBookingWithToken,
  notLiveCannotMove,
  notOpen,
  rescheduleMessage,
  sameStart,
  startedCannotMove,
  whyNotOpen,
} from '@frontdesk/domain';
import {
  appendEvent,
  bookedSince,
  findBooking,
  insertNotification,
  isOverlapViolation,
  loadBusy,
  lockBooking,
  lockPro,
  moveBooking,
  scheduleRules,
  type Booking,
  type Db,
  type Pro,
} from '@frontdesk/db';

const DAY = 86_400_000;
const RACE_WINDOW_MS = 60_000;

/**
 * Moves a live booking to a new start in one transaction: the new time is taken and the old
 * freed, or nothing changes. The pro's row is locked first, then the booking's (the order
 * every writer uses); the new start is judged by the same rules as a new booking, with the
 * booking's own time not counted as busy, and the exclusion constraint still refuses any
 * overlap another writer made meanwhile. The job keeps its booked price and length.
 */
export async function rescheduleBooking(
  db: Db,
  find: { id: string; proId: string } | { manageTokenHash: Buffer },
  start: Date,
  by: 'pro' | 'customer',
  now: Date,
): Promise<{ booking: Booking; previous: Booking; pro: Pro }> {
  try {
    return await db.transaction().execute(async (trx) => {
      const found = await findBooking(trx, find);
      if (!found) throw 'id' in find ? noBooking(find.id) : noBookingWithToken();
      const pro = (await lockPro(trx, found.pro_id))!;
      const previous = (await lockBooking(trx, found.id))!;
      const oldLabel = formatLabel(previous.starts_at, pro.timezone, now);
      if (previous.status !== 'booked') throw notLiveCannotMove(previous.id, oldLabel, previous.status);
      if (previous.starts_at.getTime() <= now.getTime()) throw startedCannotMove(previous.id, oldLabel);
      if (previous.starts_at.getTime() === start.getTime()) throw sameStart(oldLabel);

      const duration = previous.ends_at.getTime() - previous.starts_at.getTime();
      const around = Math.max(start.getTime(), now.getTime());
      const { busy, timeOff } = await loadBusy(trx, pro.id, new Date(around - 2 * DAY), new Date(around + 3 * DAY));
      // The booking's own time is what it gives up: it does not stand in its own way.
      const others = busy.filter((b) => !(b.start.getTime() === previous.starts_at.getTime() && b.blockedUntil.getTime() === previous.blocked_until.getTime()));
      const query = { rules: scheduleRules(pro), durationMinutes: duration / 60_000, now, busy: others, timeOff };
      const why = whyNotOpen(query, start);
      const end = new Date(start.getTime() + duration);
      const blockedUntil = new Date(end.getTime() + pro.travel_buffer_minutes * 60_000);
      if (why) {
        const label = formatLabel(start, pro.timezone, now);
        if (why.reason === 'taken' && (await bookedSince(trx, pro.id, start, blockedUntil, new Date(now.getTime() - RACE_WINDOW_MS)))) throw justTaken(label);
        throw notOpen(
          why.message,
          nearestOpenTimes(query, start).map((o) => formatLabel(o.start, pro.timezone, now)),
        );
      }
      const booking = await moveBooking(trx, previous.id, { start, end, blockedUntil, now });
      const newLabel = formatLabel(start, pro.timezone, now);
      const message = rescheduleMessage(by, booking.customer_name, oldLabel, newLabel);
      if (by === 'customer') await insertNotification(trx, { proId: pro.id, bookingId: booking.id, kind: 'booking.rescheduled', message, now });
      await appendEvent(
        trx,
        pro.id,
        'booking.rescheduled',
        {
          booking_id: booking.id,
          from: formatLocalIso(previous.starts_at, pro.timezone),
          to: formatLocalIso(start, pro.timezone),
          label: newLabel,
          customer_name: booking.customer_name,
          rescheduled_by: by,
          message,
        },
        now,
      );
      return { booking, previous, pro };
    });
  } catch (err) {
    if (isOverlapViolation(err)) throw justTakenByAnotherWriter();
    throw err;
  }
}
