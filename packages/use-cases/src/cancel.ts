import {
  alreadyCancelled,
  cancellationMessage,
  formatLabel,
  formatLocalIso,
  noShowCannotCancel,
  seriesCancelledMessage,
  startedCannotCancel,
} from '@frontdesk/domain';
import { lockBookingToChange, recordChange } from './booking-change';
import { cancelSeriesFrom, markCancelled, type Booking, type CancelledBy, type Db, type Pro } from '@frontdesk/db';

/**
 * Cancels a live booking, found by id on a pro's schedule or by its manage token. Locks the
 * pro's row before the booking's (the same order as createBooking) and changes only a row
 * still `booked`, so cancelling twice writes once. A customer's cancellation is news for the
 * pro (a notification); either way the feed gets an event.
 */
export async function cancelBooking(
  db: Db,
  find: { id: string; proId: string } | { manageTokenHash: Buffer },
  by: CancelledBy,
  now: Date,
  opts: { andFollowing?: boolean } = {},
): Promise<{ booking: Booking; pro: Pro; followingCancelled: number }> {
  return db.transaction().execute(async (trx) => {
    const { pro, booking } = await lockBookingToChange(trx, find);
    const label = formatLabel(booking.starts_at, pro.timezone);
    if (booking.status === 'cancelled') throw alreadyCancelled(booking.id, label);
    if (booking.status === 'no_show') throw noShowCannotCancel(booking.id, label);
    if (booking.starts_at.getTime() <= now.getTime()) throw startedCannotCancel(booking.id, label);
    const cancelled = (await markCancelled(trx, booking.id, by, now))!;
    await recordChange(trx, {
      pro,
      bookingId: booking.id,
      kind: 'booking.cancelled',
      by,
      message: cancellationMessage(by, booking.customer_name, label),
      payload: {
        booking_id: booking.id,
        start: formatLocalIso(booking.starts_at, pro.timezone),
        label,
        customer_name: booking.customer_name,
        cancelled_by: by,
      },
      now,
    });
    let followingCancelled = 0;
    // and_following on a series visit ends the series: this and every later visit.
    if (opts.andFollowing && booking.series_id) {
      const later = await cancelSeriesFrom(trx, booking.series_id, booking.starts_at, by, now);
      followingCancelled = later.length;
      await recordChange(trx, {
        pro,
        bookingId: booking.id,
        kind: 'series.cancelled',
        by,
        message: seriesCancelledMessage(by, booking.customer_name, label, later.length + 1),
        payload: { series_id: booking.series_id, from: formatLocalIso(booking.starts_at, pro.timezone), visits_cancelled: later.length + 1, cancelled_by: by },
        now,
      });
    }
    return { booking: cancelled, pro, followingCancelled };
  });
}
