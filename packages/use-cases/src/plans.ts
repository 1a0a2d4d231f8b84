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
