import { cancelledNoNoShow, formatLabel, noShowAlreadyReported, noShowBeforeStart } from '@frontdesk/domain';
import { markNoShow, type Db } from '@frontdesk/db';
import { lockBookingToChange, type LockedBooking } from './booking-change';

/**
 * Records that the customer did not show up: only for a live booking whose start has
 * passed. A customer-made booking's fee is waived; a pro-made one never had a fee.
 */
export async function reportNoShow(db: Db, proId: string, bookingId: string, now: Date): Promise<LockedBooking> {
  return db.transaction().execute(async (trx) => {
    const { pro, booking } = await lockBookingToChange(trx, { by: 'pro', proId, bookingId });
    const label = formatLabel(booking.starts_at, pro.timezone);
    if (booking.status === 'cancelled') throw cancelledNoNoShow(booking.id, label);
    if (booking.status === 'no_show') throw noShowAlreadyReported(booking.id, label);
    if (booking.starts_at.getTime() > now.getTime()) throw noShowBeforeStart(booking.id, label);
    return { booking: await markNoShow(trx, booking.id, { waiveFee: booking.fee_cents > 0, now }), pro };
  });
}
