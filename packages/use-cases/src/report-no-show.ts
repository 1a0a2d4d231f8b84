import { cancelledNoNoShow, formatLabel, formatLocalIso, noShowAlreadyReported, noShowBeforeStart, noShowRecordedMessage } from '@frontdesk/domain';
import { markNoShow, type Db } from '@frontdesk/db';
import { lockBookingToChange, recordChange, type LockedBooking } from './booking-change';

/**
 * Records that the customer did not show up: only for a live booking whose start has
 * passed. A customer-made booking's fee is waived; a pro-made one never had a fee. The feed
 * gets a `booking.no_show` event in the same transaction (the owner reported it: no notice).
 */
export async function reportNoShow(db: Db, proId: string, bookingId: string, now: Date): Promise<LockedBooking> {
  return db.transaction().execute(async (trx) => {
    const { pro, booking } = await lockBookingToChange(trx, { by: 'pro', proId, bookingId });
    const label = formatLabel(booking.starts_at, pro.timezone);
    if (booking.status === 'cancelled') throw cancelledNoNoShow(booking.id, label);
    if (booking.status === 'no_show') throw noShowAlreadyReported(booking.id, label);
    if (booking.starts_at.getTime() > now.getTime()) throw noShowBeforeStart(booking.id, label);
    const waiveFee = booking.fee_cents > 0;
    const marked = await markNoShow(trx, booking.id, { waiveFee, now });
    await recordChange(trx, {
      pro,
      booking,
      kind: 'booking.no_show',
      by: 'pro',
      message: noShowRecordedMessage(booking.customer_name, label, waiveFee),
      payload: {
        booking_id: booking.id,
        start: formatLocalIso(booking.starts_at, pro.timezone),
        label,
        customer_name: booking.customer_name,
        fee_waived: waiveFee,
      },
      now,
    });
    return { booking: marked, pro };
  });
}
