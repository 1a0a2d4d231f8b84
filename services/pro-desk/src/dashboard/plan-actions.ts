import type { RequestHandler } from 'express';
import { inOwnerWords, pickAnotherCrew, planCrewChanged, planEnded, planPaused, reachCustomer } from '@frontdesk/domain';
import type { Booking } from '@frontdesk/db';
import type { PlanRead } from '@frontdesk/use-cases';
import { formField } from '@frontdesk/http';
import type { DashboardDeps } from './deps';
import { doneAt } from './layout';
import { PLAN_LABELS, planBody, planOf, visitOfPlan, weeksAsked } from './plan-pages';
import { dashForm, runSaying, type Posted } from './route-shapes';
import { planLink, type PlanForm } from './views/plan-link';

/**
 * A recurring plan's forms (POST, behind `signedInForm`), each the operation an assistant
 * would call, in its one transaction: the crew of later visits is assign_job with
 * and_following, a pause is pause_series, the end is cancel_job with and_following. Each
 * answers 303 to the plan's page, which says what was done; a refusal shows the plan's page
 * with the form as typed and why. None mails the customer.
 */

const runPlanOp = runSaying(inOwnerWords);

/** A plan form: the plan found first (this business's), the visit it starts at checked, the operation run. */
const planForm = (d: DashboardDeps, form: PlanForm, act: (plan: PlanRead, visit: Booking, o: Posted) => Promise<string>): RequestHandler =>
  dashForm({
    title: 'Recurring plan',
    labels: PLAN_LABELS,
    section: '/dashboard/schedule',
    find: (s, req) => planOf(d, s, req),
    async act(plan, o) {
      const visit = visitOfPlan(plan, formField(o.values, 'from'), d.ctx.clock());
      return doneAt(d, o.res, planLink(plan.series.id), { text: await act(plan, visit, o) });
    },
    page: ({ s, values, req, problem }) => planBody(d, s, { req, refused: { form, values, problem } }),
  });

const reach = (b: Booking) => reachCustomer(b.customer_phone, b.customer_email);

export const postPlanCrew = (d: DashboardDeps): RequestHandler =>
  planForm(d, 'crew', async (_plan, visit, { values, req }) => {
    const crewId = formField(values, 'crew_id');
    if (!crewId) throw pickAnotherCrew();
    const done = await runPlanOp(d, d.ops.assign_job, { booking_id: visit.id, crew_id: crewId, and_following: true }, req);
    return planCrewChanged(visit.customer_name, done.visits_assigned, done.crew_name);
  });

export const postPlanPause = (d: DashboardDeps): RequestHandler =>
  planForm(d, 'pause', async (_plan, visit, { values, req }) => {
    const done = await runPlanOp(d, d.ops.pause_series, { booking_id: visit.id, weeks: weeksAsked(values) }, req);
    return planPaused(visit.customer_name, done.visits_cancelled, done.resumes_label, reach(visit));
  });

export const postPlanEnd = (d: DashboardDeps): RequestHandler =>
  planForm(d, 'end', async (_plan, visit, { req }) => {
    const done = await runPlanOp(d, d.ops.cancel_job, { booking_id: visit.id, and_following: true }, req);
    return planEnded(visit.customer_name, done.visits_cancelled, reach(visit));
  });
