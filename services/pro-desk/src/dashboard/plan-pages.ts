import type { Request, RequestHandler } from 'express';
import {
  AppError,
  MAX_PAUSE_WEEKS,
  formatLabel,
  localDate,
  pauseWeeksAsked,
  pickAVisit,
  pickAnotherCrew,
  planNotOnDashboard,
  shiftedWith,
  wallTimeOrNextInstant,
} from '@frontdesk/domain';
import type { Booking, Crew } from '@frontdesk/db';
import { dashboardPlan, listCrews, localMinutesOf, pauseFrom, placeInPlan, visitsFrom, type PlanRead } from '@frontdesk/use-cases';
import { formField, html, inPeoplesWords, type Html } from '@frontdesk/http';
import type { DashboardDeps } from './deps';
import { doneOf, type Signed } from './layout';
import { pageAbout } from './route-shapes';
import type { Typed } from './views/typed-text';
import type { FollowingMove } from './views/job';
import type { PlanForm } from './views/plan-link';
import { planCrewConfirmView, planEndConfirmView, planOfJob, planPauseConfirmView, planView, type PlanRefused } from './views/plan';

/**
 * A recurring plan's pages (GET): the plan, and the confirmation of each change to it, which
 * says what will happen (the visits, their dates, the crew) before the form that does it. A
 * change asked for with a value that cannot be (no visit, no crew, weeks out of bounds)
 * shows the plan again with the form as typed and why.
 */

/** The labels of the plan's forms, for a refusal's sentence. */
export const PLAN_LABELS = { from: 'From the visit of', crew_id: 'Give them to', weeks: 'For how many weeks' } as const;

/** The plan a page's address names, this business's only; else the refusal the page shows. */
export async function planOf(d: DashboardDeps, s: Signed, req: Request): Promise<PlanRead> {
  const plan = await dashboardPlan(d.ctx.db, s.pro.id, String(req.params.id));
  if (!plan) throw planNotOnDashboard();
  return plan;
}

const titleOf = (plan: PlanRead) => `Recurring plan: ${plan.visits[0]?.customer_name ?? ''}`;

/** The plan's page, as it is, or with one form as typed and why it was refused. */
export async function planBody(d: DashboardDeps, s: Signed, o: { req: Request; plan?: PlanRead; refused?: PlanRefused }) {
  const plan = o.plan ?? (await planOf(d, s, o.req));
  const now = d.ctx.clock();
  const { crews } = await listCrews(d.ctx.db, s.pro.id, now);
  const body = planView(s, plan, { crews, now, done: doneOf(d, o.req), ...(o.refused ? { refused: o.refused } : {}) });
  return { title: titleOf(plan), body };
}

/** The upcoming booked visit of the plan a change starts at. */
export function visitOfPlan(plan: PlanRead, id: string, now: Date): Booking {
  const visit = plan.visits.find((v) => v.id === id && v.status === 'booked' && v.starts_at.getTime() > now.getTime());
  if (!visit) throw pickAVisit();
  return visit;
}

/** The active crew a form names, other than none. */
async function crewNamed(d: DashboardDeps, s: Signed, id: string): Promise<Crew> {
  const { crews } = await listCrews(d.ctx.db, s.pro.id, d.ctx.clock());
  const crew = crews.find((c) => c.id === id && c.active);
  if (!crew) throw pickAnotherCrew();
  return crew;
}

/** The weeks a pause form asks for, as the operation takes them: a whole number in bounds. */
export function weeksAsked(values: Typed): number {
  const text = formField(values, 'weeks').trim();
  const weeks = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
  if (!(weeks >= 1 && weeks <= MAX_PAUSE_WEEKS)) throw pauseWeeksAsked();
  return weeks;
}

/** What a confirmation's address asked, as text. */
const asked = (req: Request): Typed => Object.fromEntries(Object.entries(req.query).filter((e): e is [string, string] => typeof e[1] === 'string'));

/** A plan page about one change: its confirmation, or the plan with the form as typed and why it cannot be. */
const confirmPage = (d: DashboardDeps, form: PlanForm, view: (s: Signed, plan: PlanRead, values: Typed) => Promise<Html> | Html): RequestHandler =>
  pageAbout(d, {
    section: '/dashboard/schedule',
    title: 'Recurring plan',
    async render(s, req) {
      const plan = await planOf(d, s, req);
      const values = asked(req);
      try {
        return { title: `${titleOf(plan)}: check the change`, body: await view(s, plan, values) };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return planBody(d, s, { req, plan, refused: { form, values, problem: inPeoplesWords(err.message, PLAN_LABELS) } });
      }
    },
  });

export const planPage = (d: DashboardDeps): RequestHandler =>
  pageAbout(d, { section: '/dashboard/schedule', title: 'Recurring plan', render: (s, req) => planBody(d, s, { req }) });

export const planCrewPage = (d: DashboardDeps): RequestHandler =>
  confirmPage(d, 'crew', async (s, plan, values) => {
    const now = d.ctx.clock();
    const from = visitOfPlan(plan, formField(values, 'from'), now);
    const to = await crewNamed(d, s, formField(values, 'crew_id'));
    const visits = visitsFrom(plan, from).filter((v) => v.crew_id !== to.id);
    return planCrewConfirmView(s, plan, { from, to, visits, now });
  });

export const planPausePage = (d: DashboardDeps): RequestHandler =>
  confirmPage(d, 'pause', (s, plan, values) => {
    const now = d.ctx.clock();
    const from = visitOfPlan(plan, formField(values, 'from'), now);
    const weeks = weeksAsked(values);
    return planPauseConfirmView(s, plan, { from, weeks, ...pauseFrom(plan, from, { weeks, zone: s.pro.timezone }), now });
  });

export const planEndPage = (d: DashboardDeps): RequestHandler =>
  confirmPage(d, 'end', (s, plan, values) => {
    const now = d.ctx.clock();
    const from = visitOfPlan(plan, formField(values, 'from'), now);
    return planEndConfirmView(s, plan, { from, visits: visitsFrom(plan, from), now });
  });

/** A job page's line about the plan its job is a visit of (nothing for a one-time job). */
export async function planLineOf(d: DashboardDeps, s: Signed, job: Booking): Promise<Html> {
  const plan = job.series_id ? await dashboardPlan(d.ctx.db, s.pro.id, job.series_id) : undefined;
  return plan ? planOfJob(plan, placeInPlan(plan, job.id)) : html``;
}

/** The booked visits of a job's plan after it (none for a one-time job): what a move "with every later one" takes along. */
export async function laterVisitsOf(d: DashboardDeps, s: Signed, job: Booking): Promise<Booking[]> {
  const plan = job.series_id ? await dashboardPlan(d.ctx.db, s.pro.id, job.series_id) : undefined;
  return plan ? visitsFrom(plan, job).filter((v) => v.id !== job.id) : [];
}

/** Where the later visits go when a visit moves to `start` with them (reschedule_job moves them by the same rule). */
export async function followingMove(d: DashboardDeps, s: Signed, job: Booking, start: Date): Promise<FollowingMove> {
  const zone = s.pro.timezone;
  const later = await laterVisitsOf(d, s, job);
  const dates = shiftedWith(
    later.map((v) => localDate(v.starts_at, zone)),
    { from: localDate(job.starts_at, zone), to: localDate(start, zone) },
  );
  const minutes = localMinutesOf(start, zone);
  const now = d.ctx.clock();
  const labels = dates.slice(0, SHOWN_LATER_VISITS).map((day) => formatLabel(wallTimeOrNextInstant(day, minutes, zone), zone, now));
  return { count: later.length, labels: later.length > SHOWN_LATER_VISITS ? [...labels, `and ${later.length - SHOWN_LATER_VISITS} more`] : labels };
}

/** How many of the later visits a move's confirmation lists by date. */
const SHOWN_LATER_VISITS = 4;
