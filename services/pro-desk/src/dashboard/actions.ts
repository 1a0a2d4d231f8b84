import type { Request, RequestHandler } from 'express';
import {
  AppError,
  InvalidInputError,
  NotFoundError,
  calendarAddressMade,
  formatLabel,
  inOwnerWords,
  jobCancelledOnDashboard,
  jobMovedOnDashboard,
  newKeyMade,
  noShowOnDashboard,
  reachCustomer,
  timeOffNotOnDashboard,
} from '@frontdesk/domain';
import type { Booking } from '@frontdesk/db';
import { rotateBusinessKey, markNotificationsSeen, newCalendarAddress } from '@frontdesk/use-cases';
import { formField, formRoute, html, screenInput, withinRequest, type FieldLabels, type Html, type Problem } from '@frontdesk/http';
import { runForm, type DashboardDeps } from './deps';
import { SETTINGS_FORMS, readTimeOff } from './forms';
import { dashNav, doneAt, signedOf, type Section, type Signed } from './layout';
import { jobOf, moveTimesBody, settingsBody } from './pages';
import { cancelConfirmView, noShowConfirmView } from './views/job';
import { SETTINGS_LABELS, type SettingsPart, type Typed } from './views/settings';

/**
 * The dashboard's forms (POST, behind `signedInForm`): each runs the operation the API runs
 * (or, for a new key, a calendar address or dismissing notifications, the use case) and
 * answers 303 to the page that shows the result; a refusal shows the form again as typed.
 */

/** What was typed into a form, as text, without the form token. */
export const typed = (req: Request): Typed =>
  Object.fromEntries(Object.entries((req.body ?? {}) as Record<string, unknown>).filter(([k, v]) => k !== 'csrf' && typeof v === 'string')) as Typed;

export const navOf = (section: Section) => (req: Request) => dashNav(signedOf(req), section);
export const noProblem: Problem = { text: '' };

/** A settings form (hours, prices, add-ons, profile) as update_business; the result lists the booked jobs it touches. */
export function postSettings(d: DashboardDeps, part: Exclude<SettingsPart, 'time-off'>): RequestHandler {
  const settings = SETTINGS_FORMS[part]!;
  return formRoute<Typed>({
    title: 'Settings',
    labels: SETTINGS_LABELS[part],
    read: typed,
    async act(values, req, res) {
      const input = settings.read(values);
      const { affected_jobs: affected } = await runForm(d, { op: d.ops.update_business, input }, req, signedOf(req).pro);
      return doneAt(d, res, `/dashboard/settings#${part}-section`, { text: settings.saved, affected });
    },
    form: (values, problem, req) => settingsBody(d, signedOf(req), { req, refused: { part, values, problem: problem ?? noProblem } }),
    nav: navOf('/dashboard/settings'),
  });
}

export const postTimeOff = (d: DashboardDeps): RequestHandler =>
  formRoute<Typed>({
    title: 'Settings',
    labels: SETTINGS_LABELS['time-off'],
    read: typed,
    async act(values, req, res) {
      const input = readTimeOff(values);
      const { affected_jobs: affected } = await runForm(d, { op: d.ops.add_time_off, input }, req, signedOf(req).pro);
      return doneAt(d, res, '/dashboard/settings#time-off-section', { text: 'Time off saved: no open times are offered in it.', affected });
    },
    form: (values, problem, req) => settingsBody(d, signedOf(req), { req, refused: { part: 'time-off', values, problem: problem ?? noProblem } }),
    nav: navOf('/dashboard/settings'),
  });

export const postRemoveTimeOff = (d: DashboardDeps): RequestHandler =>
  formRoute<Typed>({
    title: 'Settings',
    labels: SETTINGS_LABELS['time-off'],
    read: typed,
    async act(values, req, res) {
      // The operation judges the id; its refusal (which points an assistant at my_business) is said in the owner's words.
      await runForm(d, { op: d.ops.remove_time_off, input: { time_off_id: values.time_off_id } }, req, signedOf(req).pro).catch((err: unknown) => {
        throw err instanceof NotFoundError || err instanceof InvalidInputError ? timeOffNotOnDashboard() : err;
      });
      return doneAt(d, res, '/dashboard/settings#time-off-section', { text: 'Time off removed: those days are offered again.' });
    },
    form: (_values, problem, req) => settingsBody(d, signedOf(req), { req, refused: { part: 'time-off', values: {}, problem: problem ?? noProblem } }),
    nav: navOf('/dashboard/settings'),
  });

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
export function jobForm(
  d: DashboardDeps,
  o: {
    title: string;
    labels?: FieldLabels;
    act(s: Signed, job: Booking, req: Request, values: Typed): Promise<string>;
    page(s: Signed, job: Booking, req: Request, problem: Problem): Promise<Html> | Html;
  },
): RequestHandler {
  return formRoute<Typed>({
    title: o.title,
    labels: o.labels ?? {},
    read: typed,
    async act(values, req, res) {
      const s = signedOf(req);
      const job = await jobOf(d, s, req);
      return doneAt(d, res, '/dashboard/schedule', { text: await o.act(s, job, req, values) });
    },
    async form(_values, problem, req) {
      const s = signedOf(req);
      try {
        return await o.page(s, await jobOf(d, s, req), req, problem ?? noProblem);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return html`<p class="error" role="alert">${err.message}</p>
          <p><a href="/dashboard/schedule">Back to your schedule</a></p>`;
      }
    },
    nav: navOf('/dashboard/schedule'),
  });
}

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
      const moved = await runForm(
        d,
        { op: d.ops.reschedule_job, input: { booking_id: job.id, start: formField(values, 'start') }, words: inOwnerWords },
        req,
        s.pro,
      );
      const reach = reachCustomer(job.customer_phone, job.customer_email);
      return jobMovedOnDashboard(job.customer_name, labelOf(s, job.starts_at, now), labelOf(s, new Date(moved.start), now), reach);
    },
    page: (s, job, req, problem) => moveTimesBody(d, s, { req, job, problem }),
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
