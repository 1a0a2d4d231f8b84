import { localDate, pauseOf, wallTimeOrNextInstant } from '@frontdesk/domain';
import { seriesOfPro, seriesVisits, type Booking, type Db, type Series } from '@frontdesk/db';

/** A recurring plan as the owner's dashboard reads it: the series and every visit of it, soonest first. */
export interface PlanRead {
  series: Series;
  visits: Booking[];
}

/** A business's plan by its id, or undefined when it is not this business's. */
export async function dashboardPlan(db: Db, proId: string, seriesId: string): Promise<PlanRead | undefined> {
  const series = await seriesOfPro(db, proId, seriesId);
  return series && { series, visits: await seriesVisits(db, series.id) };
}

/** Where a visit stands in its plan: its place among the visits not cancelled, how many those are, and whether the plan ended. */
export function placeInPlan(plan: PlanRead, visitId: string): { n: number; of: number; ended: boolean } | undefined {
  const live = plan.visits.filter((v) => v.status !== 'cancelled');
  const n = live.findIndex((v) => v.id === visitId) + 1;
  return n > 0 ? { n, of: live.length, ended: plan.series.ended_at !== null } : undefined;
}

/** The booked visits of a plan still ahead, soonest first. */
export const upcomingVisits = (plan: PlanRead, now: Date): Booking[] =>
  plan.visits.filter((v) => v.status === 'booked' && v.starts_at.getTime() > now.getTime());

/** The booked visits from one on (the visit included): what ending the plan or changing its crew from there acts on. */
export const visitsFrom = (plan: PlanRead, from: Booking): Booking[] =>
  plan.visits.filter((v) => v.status === 'booked' && v.starts_at.getTime() >= from.starts_at.getTime());

/** A pause of `weeks` from a visit's start: the plan dates it skips, the instant its weeks end, and the start the plan carries on with. */
export function pauseWindow(series: Series, start: Date, o: { weeks: number; zone: string }) {
  const pause = pauseOf({ firstDate: series.first_date, frequency: series.frequency }, localDate(start, o.zone), o.weeks);
  return {
    dates: pause.dates,
    before: wallTimeOrNextInstant(pause.before, 0, o.zone),
    resumesOn: pause.resumesOn,
    resumes: wallTimeOrNextInstant(pause.resumesOn, series.local_minutes, o.zone),
  };
}

/** What a pause of `weeks` from a visit will cancel, and where the plan carries on (pause_series acts by the same window). */
export function pauseFrom(plan: PlanRead, from: Booking, o: { weeks: number; zone: string }): { visits: Booking[]; resumes: Date } {
  const w = pauseWindow(plan.series, from.starts_at, o);
  return { visits: visitsFrom(plan, from).filter((v) => v.starts_at.getTime() < w.before.getTime()), resumes: w.resumes };
}
