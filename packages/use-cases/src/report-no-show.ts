import { cancelledNoNoShow, formatLabel, noBooking, noShowAlreadyReported, noShowBeforeStart } from '@frontdesk/domain';
import { getPro, lockBooking, markNoShow, type Booking, type Db, type Pro } from '@frontdesk/db';

/**
 * Records that the customer did not show up: only for a live booking whose start has
 * passed. A customer-made booking's fee is waived; a pro-made one never had a fee.
 */
export async function reportNoShow(db: Db, proId: string, bookingId: string, now: Date): Promise<{ booking: Booking; pro: Pro }> {
  return db.transaction().execute(async (trx) => {
    const booking = await lockBooking(trx, bookingId, proId);
    if (!booking) throw noBooking(bookingId);
    const pro = (await getPro(trx, proId))!;
    const label = formatLabel(booking.starts_at, pro.timezone);
    if (booking.status === 'cancelled') throw cancelledNoNoShow(booking.id, label);
    if (booking.status === 'no_show') throw noShowAlreadyReported(booking.id, label);
    if (booking.starts_at.getTime() > now.getTime()) throw noShowBeforeStart(booking.id, label);
    return { booking: await markNoShow(trx, booking, now), pro };
  });
}
