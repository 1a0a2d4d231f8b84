import type { Request, RequestHandler } from 'express';
import { AppError, bookingPageOf, formatLabel, labelledStarts, localDate, moveWindow, pickANewTime, sameStart, timeOffNotOnDashboard } from '@frontdesk/domain';
import type { Booking } from '@frontdesk/db';
import {
  dashboardFollowUps,
  dashboardHolds,
  dashboardJobs,
  dashboardMonth,
  dashboardSettings,
  dashboardToday,
  moveMailAddress,
  visitNeighbours,
} from '@frontdesk/use-cases';
import { formField, html, inPeoplesWords, type Html, type Problem } from '@frontdesk/http';
import { runForm, type DashboardDeps } from './deps';
import { doneOf, signedInPage, type Section, type Signed } from './layout';
import { crewFilterOf, jobOf } from './lookups';
import { followingMove, laterVisitsOf, planLineOf } from './plan-pages';
import { pageAbout } from './route-shapes';
import { cancelConfirmView, moveConfirmView, moveTimesView, noShowConfirmView } from './views/job';
import { onMyWayConfirmView } from './views/on-my-way';
import { keysView, newKeyConfirmView } from './views/keys';
import { leadsView } from './views/leads';
import { goneNotice } from './views/notices';
import { monthView } from './views/month';
import { scheduleView, type CrewFilter } from './views/schedule';
import { SETTINGS_PAGES, removeTimeOffConfirmView, settingsIndexView, settingsView, type Refused, type SettingsPage } from './views/settings';
import { todayView } from './views/today';

/** The dashboard's pages (GET): each reads through use cases or operations and sends its view. */

/** A day or week page: the crews, and the one its `crew` parameter picks, for its view. */
const crewFilteredPage = (
  d: DashboardDeps,
  section: Section,
  render: (s: Signed, req: Request, o: { now: Date } & CrewFilter) => Promise<{ title?: string; body: Html }>,
): RequestHandler => signedInPage(d, { section, render: async (s, req) => render(s, req, { now: d.ctx.clock(), ...(await crewFilterOf(d, s, req)) }) });

export const todayPage = (d: DashboardDeps): RequestHandler =>
  crewFilteredPage(d, '/dashboard', async (s, req, { now, ...filter }) => {
    const data = await dashboardToday(d.ctx.db, s.pro, { bookingUrl: d.ctx.config.bookingUrl, now, ...(filter.crew ? { crewId: filter.crew.id } : {}) });
    return { body: todayView(s, { ...data, ...filter, now, bookingPage: bookingPageOf(d.ctx.config.bookingUrl, s.pro.id) }, doneOf(d, req)) };
  });

export const schedulePage = (d: DashboardDeps): RequestHandler =>
  crewFilteredPage(d, '/dashboard/schedule', async (s, req, { now, ...filter }) => {
    const [jobs, holds] = await Promise.all([dashboardJobs(d.ctx.db, s.pro, now, filter.crew?.id), dashboardHolds(d.ctx.db, s.pro, now, filter.crew?.id)]);
    return { title: filter.crew ? `Schedule: ${filter.crew.name}` : 'Schedule', body: scheduleView(s, { now, jobs, holds, ...filter }, doneOf(d, req)) };
  });

export const leadsPage = (d: DashboardDeps): RequestHandler =>
  signedInPage(d, {
    section: '/dashboard/leads',
    async render(s) {
      const due = await dashboardFollowUps(d.ctx.db, s.pro, { bookingUrl: d.ctx.config.bookingUrl, now: d.ctx.clock() });
      return { title: 'Leads and follow-ups', body: leadsView(due) };
    },
  });

export const monthPage = (d: DashboardDeps): RequestHandler =>
  signedInPage(d, {
    section: '/dashboard/month',
    async render(s) {
      return { title: 'Month', body: monthView(await dashboardMonth(d.ctx.db, s.pro, d.ctx.clock())) };
    },
  });

/** A settings page, as the business is, or with its refused form as it was typed. */
export async function settingsBody(d: DashboardDeps, s: Signed, o: { req: Request; page: SettingsPage; refused?: Refused }) {
  const timeOff = o.page === 'time-off' ? (await dashboardSettings(d.ctx.db, s.pro, d.ctx.clock())).timeOff : [];
  const data = { timeOff, bookingPage: bookingPageOf(d.ctx.config.bookingUrl, s.pro.id), done: doneOf(d, o.req) };
  return { title: SETTINGS_PAGES[o.page].title, body: settingsView(s, o.page, { ...data, ...(o.refused ? { refused: o.refused } : {}) }) };
}

export const settingsPage = (d: DashboardDeps, page: SettingsPage): RequestHandler =>
  signedInPage(d, { section: '/dashboard/settings', render: (s, req) => settingsBody(d, s, { req, page }) });

/** The settings index: a line about each settings page, and the booking page's address. */
export const settingsIndexPage = (d: DashboardDeps): RequestHandler =>
  signedInPage(d, {
    section: '/dashboard/settings',
    render: (s) => Promise.resolve({ title: 'Settings', body: settingsIndexView(bookingPageOf(d.ctx.config.bookingUrl, s.pro.id)) }),
  });

export const keysPage = (d: DashboardDeps): RequestHandler =>
  signedInPage(d, {
    section: '/dashboard/keys',
    async render(s, req) {
      const now = d.ctx.clock();
      const { calendar } = await dashboardSettings(d.ctx.db, s.pro, now);
      return { title: 'Keys and calendar', body: keysView(s, { now, calendar, publicUrl: d.ctx.config.publicUrl, done: doneOf(d, req) }) };
    },
  });

export const newKeyPage = (d: DashboardDeps): RequestHandler =>
  signedInPage(d, { section: '/dashboard/keys', render: (s) => Promise.resolve({ title: 'Make a new key?', body: newKeyConfirmView(s) }) });

/** A job's page; a job that is not this business's answers 404 with the sentence. */
const jobPage = (d: DashboardDeps, o: { title: string; view: (s: Signed, b: Booking, req: Request) => Promise<Html> | Html }): RequestHandler =>
  pageAbout(d, {
    section: '/dashboard/schedule',
    title: o.title,
    async render(s, req) {
      const job = await jobOf(d, s, req);
      return { title: o.title, body: html`${await planLineOf(d, s, job)}${await o.view(s, job, req)}` };
    },
  });

export const cancelPage = (d: DashboardDeps): RequestHandler =>
  jobPage(d, { title: 'Cancel this job?', view: (s, b) => cancelConfirmView(s, b, { now: d.ctx.clock() }) });
export const onMyWayPage = (d: DashboardDeps): RequestHandler =>
  jobPage(d, { title: 'On my way', view: (s, b) => onMyWayConfirmView(s, b, { now: d.ctx.clock() }) });
export const noShowPage = (d: DashboardDeps): RequestHandler =>
  jobPage(d, { title: 'Report a no-show?', view: (s, b) => noShowConfirmView(s, b, { now: d.ctx.clock() }) });

/** What a move page carries from page to page (`from`, the week picked; `visits`, which move; `email_customer`), from its address or its posted form. */
const moveAsked = (req: Request, name: string): string => (typeof req.query[name] === 'string' ? req.query[name] : formField(req.body, name));

/** A week picked with the move page's links (`from`, a day), kept through the confirmation and a refusal. */
export const moveFromOf = (req: Request): string | undefined => moveAsked(req, 'from') || undefined;

/** Whether the move takes every later visit of the plan along. */
export const movesFollowing = (req: Request): boolean => moveAsked(req, 'visits') === 'following';
const emailAsked = (req: Request): boolean => moveAsked(req, 'email_customer') === 'yes';

/**
 * The open times a job could move to: the operation open_times for the job as booked, on the
 * days around the job's own date (moveWindow) or the week picked; for a visit of a series,
 * the visits it stays between.
 */
export async function moveTimesBody(d: DashboardDeps, s: Signed, o: { req: Request; job: Booking; problem?: Problem }): Promise<Html> {
  const b = o.job;
  const now = d.ctx.clock();
  const zone = s.pro.timezone;
  const jobDay = localDate(b.starts_at, zone);
  const days = moveWindow({ jobDate: jobDay, today: localDate(now, zone), from: moveFromOf(o.req) });
  const input = {
    bedrooms: b.bedrooms,
    bathrooms: Number(b.bathrooms),
    clean_type: b.clean_type,
    add_ons: b.add_ons,
    pets: b.pets,
    date: days.from,
    days: days.days,
  };
  const around = await visitNeighbours(d.ctx.db, b);
  const neighbours = {
    before: around.before && formatLabel(around.before.starts_at, zone, now),
    after: around.after && formatLabel(around.after.starts_at, zone, now),
  };
  const later = (await laterVisitsOf(d, s, b)).length;
  const view = {
    now,
    days,
    jobDay,
    neighbours,
    along: { later, chosen: movesFollowing(o.req) ? ('following' as const) : ('this' as const) },
    emailCustomer: emailAsked(o.req),
  };
  try {
    const found = await runForm(d, { op: d.ops.open_times, input }, o.req, s.pro);
    const times = labelledStarts(found.open_times, found.timezone);
    return moveTimesView(s, b, { ...view, times, ...(o.problem ? { problem: o.problem } : {}) });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return moveTimesView(s, b, { ...view, times: [], problem: inPeoplesWords(err.message, {}) });
  }
}

export const movePage = (d: DashboardDeps): RequestHandler => jobPage(d, { title: 'Move this job', view: (s, job, req) => moveTimesBody(d, s, { req, job }) });

/** The confirmation of a move to the picked time; without a pick, the times again with the reason. */
export const moveConfirmPage = (d: DashboardDeps): RequestHandler =>
  jobPage(d, {
    title: 'Move this job?',
    async view(s, job, req) {
      const start = typeof req.query.start === 'string' ? req.query.start : '';
      const picked = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(start) ? new Date(start) : null;
      if (!picked || Number.isNaN(picked.getTime())) return moveTimesBody(d, s, { req, job, problem: { text: pickANewTime().message } });
      // Its own time (back to this page after the move, say): said at once, never a move from a time to the same time.
      if (picked.getTime() === job.starts_at.getTime())
        return moveTimesBody(d, s, { req, job, problem: { text: sameStart(formatLabel(picked, s.pro.timezone, d.ctx.clock())).message } });
      const to = await moveMailAddress(d.ctx.db, job);
      return moveConfirmView(s, job, {
        now: d.ctx.clock(),
        start,
        label: formatLabel(picked, s.pro.timezone, d.ctx.clock()),
        from: moveFromOf(req),
        ...(movesFollowing(req) && job.series_id ? { following: await followingMove(d, s, job, picked) } : {}),
        email: to ? { to, checked: emailAsked(req) } : null,
      });
    },
  });

export const removeTimeOffPage = (d: DashboardDeps): RequestHandler =>
  signedInPage(d, {
    section: '/dashboard/settings',
    async render(s, req) {
      const { timeOff } = await dashboardSettings(d.ctx.db, s.pro, d.ctx.clock());
      const t = timeOff.find((x) => x.id === req.params.id);
      if (!t)
        return {
          title: 'Remove this time off?',
          status: 404,
          body: goneNotice(timeOffNotOnDashboard().message, '/dashboard/settings'),
        };
      return { title: 'Remove this time off?', body: removeTimeOffConfirmView(s, t) };
    },
  });
