import type { Request, RequestHandler } from 'express';
import {
  InvalidInputError,
  NotFoundError,
  calendarAddressMade,
  formatLabel,
  inOwnerWords,
  jobCancelledOnDashboard,
  jobMovedOnDashboard,
  jobMovedAndEmailedOnDashboard,
  laterVisitsMoved,
  newKeyMade,
  noShowOnDashboard,
  reachCustomer,
  timeOffNotOnDashboard,
} from '@frontdesk/domain';
import type { Booking } from '@frontdesk/db';
import { rotateBusinessKey, markNotificationsSeen, newCalendarAddress } from '@frontdesk/use-cases';
import { allowOwnScripts, formField, screenInput, withinRequest, type FieldLabels, type Html, type Problem } from '@frontdesk/http';
import { runForm, type DashboardDeps } from './deps';
import { SETTINGS_FORMS, numeric, readTimeOff } from './forms';
import { doneAt, signedOf, type Done, type Signed } from './layout';
import { jobOf } from './lookups';
import { moveTimesBody, movesFollowing, settingsBody } from './pages';
import { planLink } from './views/plan-link';
import { dashForm, nothingToFind, type Posted } from './route-shapes';
import { cancelConfirmView, noShowConfirmView } from './views/job';
import { onMyWayConfirmView } from './views/on-my-way';
import { SETTINGS_LABELS, settingsLink, settingsPageOf, type SettingsPart } from './views/settings';
import type { Typed } from './views/typed-text';

/**
 * The dashboard's forms (POST, behind `signedInForm`): each runs the operation the API runs
 * (or, for a new key, a calendar address or dismissing notifications, the use case) and
 * answers 303 to the page that shows the result; a refusal shows the form again as typed.
 */

/** A settings form: its operation runs, and its settings page shows what it did; a refusal shows that page with this form as typed (or, with `refill: false`, empty). */
const settingsForm = (d: DashboardDeps, part: SettingsPart, act: (o: Posted) => Promise<Done>, refill = true): RequestHandler =>
  dashForm({
    title: 'Settings',
    labels: SETTINGS_LABELS[part],
    section: '/dashboard/settings',
    find: nothingToFind,
    act: async (_none, o) => doneAt(d, o.res, settingsLink(settingsPageOf(part)), await act(o)),
    page: ({ s, values, req, problem }) => {
      allowOwnScripts(req.res!); // the booking page's copy button, on the page again after a refusal
      return settingsBody(d, s, { req, page: settingsPageOf(part), refused: { part, values: refill ? values : {}, problem } });
    },
  });

/** A settings form (hours, prices, add-ons, profile) as update_business; the result lists the booked jobs it touches. */
export function postSettings(d: DashboardDeps, part: Exclude<SettingsPart, 'time-off'>): RequestHandler {
  const settings = SETTINGS_FORMS[part]!;
  return settingsForm(d, part, async ({ s, values, req }) => {
    const { affected_jobs: affected } = await runForm(d, { op: d.ops.update_business, input: settings.read(values) }, req, s.pro);
    return { text: settings.saved, affected };
  });
}

export const postTimeOff = (d: DashboardDeps): RequestHandler =>
  settingsForm(d, 'time-off', async ({ s, values, req }) => {
    const { affected_jobs: affected } = await runForm(d, { op: d.ops.add_time_off, input: readTimeOff(values) }, req, s.pro);
    return { text: 'Time off saved: no open times are offered in it.', affected };
  });

export const postRemoveTimeOff = (d: DashboardDeps): RequestHandler =>
  settingsForm(
    d,
    'time-off',
    async ({ s, values, req }) => {
      // The operation judges the id; its refusal (which points an assistant at my_business) is said in the owner's words.
      await runForm(d, { op: d.ops.remove_time_off, input: { time_off_id: values.time_off_id } }, req, s.pro).catch((err: unknown) => {
        throw err instanceof NotFoundError || err instanceof InvalidInputError ? timeOffNotOnDashboard() : err;
      });
      return { text: 'Time off removed: those days are offered again.' };
    },
    false,
  );

/** At most this many notifications are dismissed by one form. */
const MAX_MARKED = 100;

export const postMarkSeen =
  (d: DashboardDeps): RequestHandler =>
  async (req, res) => {
    const ids = ([] as unknown[]).concat((req.body as { id?: unknown }).id ?? []).filter((v): v is string => typeof v === 'string');
    screenInput({ id: ids }); // a NUL is a 400 with the operations' sentence, not a query's 500
    await withinRequest(req, () => markNotificationsSeen(d.ctx.db, signedOf(req).pro.id, ids.slice(0, MAX_MARKED), d.ctx.clock()));
    res.redirect(303, doneAt(d, res, '/dashboard', { text: 'Marked as seen. They stay listed under what happened lately.' }));
  };

/** A new key, shown from a sealed reference: a reload shows the same key and never makes another. */
export const postNewKey =
  (d: DashboardDeps): RequestHandler =>
  async (req, res) => {
    const key = await withinRequest(req, () => rotateBusinessKey(d.ctx.db, signedOf(req).pro.id, d.ctx.clock()));
    // The next page of this process must not accept the old key: wait until the change feed has heard the write.
    await d.ctx.changes?.fence();
    const secret = { id: 'new-key', label: 'Your new key (copy it now; it is shown only on this page, for a few minutes):', value: key };
    res.redirect(303, doneAt(d, res, '/dashboard/keys', { text: newKeyMade, secret }));
  };

export const postNewCalendar =
  (d: DashboardDeps): RequestHandler =>
  async (req, res) => {
    const feed = await withinRequest(req, () => newCalendarAddress(d.ctx.db, signedOf(req).pro.id, d.ctx.clock()));
    const value = `${d.ctx.config.publicUrl}/calendar/${feed}.ics`;
    const secret = { id: 'calendar-url', label: 'Your calendar address (copy it now; it is shown only on this page, for a few minutes):', value };
    res.redirect(303, doneAt(d, res, '/dashboard/keys', { text: calendarAddressMade, secret }));
  };

/** A job's form: the job is found first (this business's only), then the operation runs; a refusal shows the page again. */
export const jobForm = (
  d: DashboardDeps,
  o: {
    title: string;
    labels?: FieldLabels;
    act(s: Signed, job: Booking, req: Request, values: Typed): Promise<string>;
    page(s: Signed, job: Booking, req: Request, problem: Problem): Promise<Html> | Html;
    /** The page the result is shown on: the schedule unless said. */
    doneAt?: (job: Booking) => string;
  },
): RequestHandler =>
  dashForm({
    title: o.title,
    labels: o.labels ?? {},
    section: '/dashboard/schedule',
    find: (s, req) => jobOf(d, s, req),
    act: async (job, { s, values, req, res }) => doneAt(d, res, o.doneAt?.(job) ?? '/dashboard/schedule', { text: await o.act(s, job, req, values) }),
    page: async ({ s, req, problem }) => o.page(s, await jobOf(d, s, req), req, problem),
  });

const labelOf = (s: Signed, at: Date, now: Date) => formatLabel(at, s.pro.timezone, now);

export const postCancelJob = (d: DashboardDeps): RequestHandler =>
  jobForm(d, {
    title: 'Cancel this job?',
    async act(s, job, req) {
      await runForm(d, { op: d.ops.cancel_job, input: { booking_id: job.id } }, req, s.pro);
      return jobCancelledOnDashboard(job.customer_name, labelOf(s, job.starts_at, d.ctx.clock()), reachCustomer(job.customer_phone, job.customer_email));
    },
    page: (s, job, _req, problem) => cancelConfirmView(s, job, { now: d.ctx.clock(), problem }),
  });

export const postMoveJob = (d: DashboardDeps): RequestHandler =>
  jobForm(d, {
    title: 'Move this job',
    labels: { start: 'The new time' },
    async act(s, job, req, values) {
      const now = d.ctx.clock();
      const input = {
        booking_id: job.id,
        start: formField(values, 'start'),
        ...(movesFollowing(req) ? { and_following: true } : {}),
        ...(formField(values, 'email_customer') === 'yes' ? { notify_customer: true } : {}),
      };
      const moved = await runForm(d, { op: d.ops.reschedule_job, input, words: inOwnerWords }, req, s.pro);
      const [from, to] = [labelOf(s, job.starts_at, now), labelOf(s, new Date(moved.start), now)];
      const said = moved.customer_notified
        ? jobMovedAndEmailedOnDashboard(job.customer_name, from, to, job.customer_email ?? '')
        : jobMovedOnDashboard(job.customer_name, from, to, reachCustomer(job.customer_phone, job.customer_email));
      return `${said}${laterVisitsMoved(moved.visits_moved - 1)}`;
    },
    page: (s, job, req, problem) => moveTimesBody(d, s, { req, job, problem }),
    // A visit of a plan shows its plan next, where the moved visits are listed.
    doneAt: (job) => (job.series_id ? planLink(job.series_id) : '/dashboard/schedule'),
  });

export const postNoShow = (d: DashboardDeps): RequestHandler =>
  jobForm(d, {
    title: 'Report a no-show?',
    async act(s, job, req) {
      const done = await runForm(d, { op: d.ops.report_no_show, input: { booking_id: job.id } }, req, s.pro);
      return noShowOnDashboard(job.customer_name, labelOf(s, job.starts_at, d.ctx.clock()), done.fee_waived);
    },
    page: (s, job, _req, problem) => noShowConfirmView(s, job, { now: d.ctx.clock(), problem }),
  });

/** "On my way" from the Today page: the operation mails the customer once; the result (sent, or sent before) shows on Today. */
export const postOnMyWay = (d: DashboardDeps): RequestHandler =>
  jobForm(d, {
    title: 'On my way',
    labels: { eta_minutes: 'Arriving in, minutes' },
    async act(s, job, req, values) {
      const eta = numeric(formField(values, 'eta_minutes'));
      const done = await runForm(
        d,
        { op: d.ops.notify_on_my_way, input: { booking_id: job.id, ...(eta === undefined ? {} : { eta_minutes: eta }) } },
        req,
        s.pro,
      );
      return done.message;
    },
    page: (s, job, req, problem) => onMyWayConfirmView(s, job, { now: d.ctx.clock(), problem, eta: formField(req.body, 'eta_minutes') }),
    doneAt: () => '/dashboard',
  });
