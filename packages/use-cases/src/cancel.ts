import {
  alreadyCancelled,
  cancellationMessage,
  formatLabel,
  formatLocalIso,
  noShowCannotCancel,
  seriesCancelledMessage,
  startedCannotCancel,
} from '@frontdesk/domain';
import { lockBookingToChange, recordChange, type BookingLocator } from './booking-change';
import { mailCancelled, type MailLinks } from './booking-mail';
import { cancelSeriesFrom, lockProperty, markCancelled, type Booking, type Db, type Pro } from '@frontdesk/db';
import { placeTurnoverFee } from './host-mail';

/** A host-requested arrangement's turnover cancelled by hand: its one fee, if this clean carried it, passes to the next upcoming clean. */
async function feeToNextTurnover(trx: Db, booking: Booking, now: Date): Promise<void> {
  const property = booking.property_id && (await lockProperty(trx, booking.pro_id, booking.property_id));
  if (property && property.fee_booking_id === booking.id) await placeTurnoverFee(trx, property, now);
}

/** A booking the business or customer may still cancel (or a pause may skip): live and not started; else the refusal saying why. */
export function requireCancellable(booking: Booking, label: string, now: Date): void {
  if (booking.status === 'cancelled') throw alreadyCancelled(booking.id, label);
  if (booking.status === 'no_show') throw noShowCannotCancel(booking.id, label);
  if (booking.starts_at.getTime() <= now.getTime()) throw startedCannotCancel(booking.id, label);
}

export interface Cancelled {
  booking: Booking;
  pro: Pro;
  /** Later visits of the series cancelled with it (and_following). */
  followingCancelled: number;
}

/**
 * Cancels a live booking: the business's job by id, or a customer's by the manage token.
 * Locks the pro's row before the booking's (the same order as createBooking) and changes only
 * a row still `booked`, so cancelling twice writes once. A customer's cancellation is news for
 * the pro (a notification); either way the feed gets an event. With `andFollowing`, a visit of
 * a series ends the series: this visit and every later one.
 */
export async function cancelBooking(db: Db, at: BookingLocator, now: Date, opts: { andFollowing?: boolean; mail?: MailLinks } = {}): Promise<Cancelled> {
  const { by } = at;
  return db.transaction().execute(async (trx) => {
    const { pro, booking } = await lockBookingToChange(trx, at);
    const label = formatLabel(booking.starts_at, pro.timezone);
    requireCancellable(booking, label, now);
    const cancelled = (await markCancelled(trx, booking.id, by, now))!;
    await feeToNextTurnover(trx, booking, now);
    const start = formatLocalIso(booking.starts_at, pro.timezone);
    const endsSeries = Boolean(opts.andFollowing && booking.series_id);
    // The feed gets both events; the owner gets one notice of one act (the series' when it ends).
    await recordChange(trx, {
      notify: !endsSeries,
      pro,
      booking,
      kind: 'booking.cancelled',
      by,
      message: cancellationMessage(by, booking.customer_name, label),
      payload: { booking_id: booking.id, start, label, customer_name: booking.customer_name, cancelled_by: by },
      now,
    });
    if (!endsSeries || !booking.series_id) {
      await mailCancelled(trx, { by, pro, booking: cancelled, laterCancelled: 0 }, opts.mail, now);
      return { booking: cancelled, pro, followingCancelled: 0 };
    }
    const later = await cancelSeriesFrom(trx, booking.series_id, { after: booking.starts_at, by, now });
    await recordChange(trx, {
      pro,
      booking,
      kind: 'series.cancelled',
      by,
      message: seriesCancelledMessage(by, booking.customer_name, label, later.length + 1),
      payload: { series_id: booking.series_id, from: start, visits_cancelled: later.length + 1, cancelled_by: by },
      now,
    });
    await mailCancelled(trx, { by, pro, booking: cancelled, laterCancelled: later.length }, opts.mail, now);
    return { booking: cancelled, pro, followingCancelled: later.length };
  });
}
