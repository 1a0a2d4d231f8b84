import type { Request } from 'express';
import { jobNotOnSchedule } from '@frontdesk/domain';
import type { Booking } from '@frontdesk/db';
import { dashboardJob, listCrews } from '@frontdesk/use-cases';
import type { DashboardDeps } from './deps';
import type { Signed } from './layout';
import type { CrewFilter } from './views/schedule';

/** What a dashboard request names, looked up among the signed-in business's own: the job of its address, the crew its `crew` parameter picks. */

/** The job a page's address names, or a refusal that the page shows. */
export async function jobOf(d: DashboardDeps, s: Signed, req: Request): Promise<Booking> {
  const job = await dashboardJob(d.ctx.db, s.pro.id, String(req.params.id));
  if (!job) throw jobNotOnSchedule();
  return job;
}

/** The crews of a business, and the one a day or week page's `crew` parameter picks (none when it names no crew of the business). */
export async function crewFilterOf(d: DashboardDeps, s: Signed, req: Request): Promise<CrewFilter> {
  const { crews } = await listCrews(d.ctx.db, s.pro.id, d.ctx.clock());
  const picked = typeof req.query.crew === 'string' ? crews.find((c) => c.id === req.query.crew) : undefined;
  return picked ? { crews, crew: picked } : { crews };
}
