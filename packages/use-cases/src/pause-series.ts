import { cancellationMessage, formatLabel, formatLocalIso, notAVisitOfAPlan, planHasEnded } from '@frontdesk/domain';
import { cancelVisitsBetween, lockSeries, updateSeries, type Booking, type Db, type Pro, type Series } from '@frontdesk/db';
import { lockBookingToChange, recordChange } from './booking-change';
import { requireCancellable } from './cancel';
import { pauseWindow } from './plans';

export interface Paused {
  pro: Pro;
  series: Series;
  /** The visit the pause starts at. */
  visit: Booking;
  /** The visits the pause cancelled, soonest first. */
  cancelled: Booking[];
  /** The first visit date after the pause, and its start as the plan holds it. */
  resumesOn: string;
  resumesAt: Date;
}

/**
 * Pauses a recurring plan for some weeks from one of its upcoming visits, in one transaction:
 * the booked visits in those weeks are cancelled by the business (no fee, the customer is not
 * mailed), the plan's dates in them are remembered so the horizon never books them, and the
 * plan carries on after them at its usual time. Each cancelled visit is an event in the feed.
 */
export async function pauseSeries(db: Db, pro: Pick<Pro, 'id'>, input: { booking_id: string; weeks: number }, now: Date): Promise<Paused> {
  return db.transaction().execute(async (trx) => {
    const locked = await lockBookingToChange(trx, { by: 'pro', proId: pro.id, bookingId: input.booking_id });
    const { booking } = locked;
    const zone = locked.pro.timezone;
    const label = formatLabel(booking.starts_at, zone, now);
    if (!booking.series_id) throw notAVisitOfAPlan(booking.id);
    requireCancellable(booking, label, now);
    const series = (await lockSeries(trx, booking.series_id))!;
    if (series.ended_at) throw planHasEnded();
    const pause = pauseWindow(series, booking.starts_at, { weeks: input.weeks, zone });
    const cancelled = await cancelVisitsBetween(trx, series.id, { from: booking.starts_at, before: pause.before, by: 'pro', now });
    const paused = [...new Set([...series.paused_dates, ...pause.dates])].sort();
    await updateSeries(trx, series.id, { paused_dates: paused });
    for (const visit of cancelled) {
      const at = formatLabel(visit.starts_at, zone, now);
      await recordChange(trx, {
        pro: locked.pro,
        booking: visit,
        kind: 'booking.cancelled',
        by: 'pro',
        message: cancellationMessage('pro', visit.customer_name, at),
        payload: { booking_id: visit.id, start: formatLocalIso(visit.starts_at, zone), label: at, customer_name: visit.customer_name, cancelled_by: 'pro' },
        now,
      });
    }
    return { pro: locked.pro, visit: booking, series: { ...series, paused_dates: paused }, cancelled, resumesOn: pause.resumesOn, resumesAt: pause.resumes };
  });
}
