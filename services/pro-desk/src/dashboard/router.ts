import express, { Router, type RequestHandler } from 'express';
import type { Pro } from '@frontdesk/db';
import { NO_CALENDAR_AT_ADDRESS } from '@frontdesk/domain';
import { calendarFeed } from '@frontdesk/use-cases';
import { formsFromThisSite, type HostLimits, type RunOptions } from '@frontdesk/http';
import type { AppContext } from '../context';
import type { ProDeskOperationSet } from '../operations';
import {
  postCancelJob,
  postMarkSeen,
  postMoveJob,
  postNewCalendar,
  postNewKey,
  postNoShow,
  postOnMyWay,
  postRemoveTimeOff,
  postSettings,
  postTimeOff,
} from './actions';
import {
  postAddCrew,
  postAssignJob,
  postCrewActive,
  postCrewCalendar,
  postCrewHours,
  postCrewEmail,
  postCrewName,
  postCrewTimeOff,
  postRemoveCrew,
} from './crew-actions';
import { assignJobPage, crewsPage, oneCrewPage, removeCrewPage } from './crew-pages';
import { boardPage, jobPage } from './board-page';
import type { DashboardDeps } from './deps';
import { postReleaseHold, releaseHoldPage } from './hold-release';
import { signedInForm } from './layout';
import { postAddWebhook, postPauseWebhook, postRemoveWebhook, postRetryWebhook, postRotateWebhookSecret, postTestWebhook } from './webhook-actions';
import { removeWebhookPage, webhooksPage } from './webhook-pages';
import {
  cancelPage,
  keysPage,
  leadsPage,
  monthPage,
  moveConfirmPage,
  movePage,
  newKeyPage,
  noShowPage,
  onMyWayPage,
  removeTimeOffPage,
  schedulePage,
  settingsIndexPage,
  settingsPage,
  todayPage,
} from './pages';
import { getCode, postCode, postSignOut, postVerify } from './session';
import { clientRoutes } from './client-pages';
import { propertyRoutes } from './property-pages';
import { postPlanCrew, postPlanEnd, postPlanPause } from './plan-actions';
import { planCrewPage, planEndPage, planPage, planPausePage } from './plan-pages';
import { welcomePage } from '../sign-up-page';
import { COPY_SCRIPT } from './views/leads';
import { SETTINGS_PAGES, settingsLink, type SettingsPage } from './views/settings';

const copyScript: RequestHandler = (_req, res) => {
  res.type('text/javascript').setHeader('Cache-Control', 'public, max-age=3600').send(COPY_SCRIPT);
};

/** The calendar feed: read fresh on every fetch, so a calendar sees a change on its next poll; no cache keeps its names and addresses. */
const calendarFile =
  (d: DashboardDeps): RequestHandler =>
  async (req, res) => {
    const match = /^([A-Za-z0-9_-]{43})\.ics$/.exec(String(req.params.file));
    const ics = match ? await calendarFeed(d.ctx.db, match[1]!, new URL(d.ctx.config.publicUrl).host, d.ctx.clock()) : undefined;
    if (!ics) {
      res.status(404).json({ error: NO_CALENDAR_AT_ADDRESS });
      return;
    }
    res.status(200).type('text/calendar; charset=utf-8').setHeader('Cache-Control', 'no-store').send(ics);
  };

/** The pages (GET) by address; a form's own address shows the page its form is on. */
function pages(router: Router, d: DashboardDeps): void {
  const today = todayPage(d);
  const keys = keysPage(d);
  for (const path of ['/dashboard', '/dashboard/verify', '/dashboard/sign-out', '/dashboard/notifications/read']) router.get(path, today);
  router.get('/dashboard/schedule', schedulePage(d));
  router.get('/dashboard/board', boardPage(d));
  router.get('/dashboard/jobs/:id', jobPage(d));
  router.get('/dashboard/leads', leadsPage(d));
  router.get('/dashboard/month', monthPage(d));
  router.get('/dashboard/settings', settingsIndexPage(d));
  for (const page of Object.keys(SETTINGS_PAGES) as SettingsPage[]) {
    const shown = settingsPage(d, page);
    // Its form's own address (and the page's before Settings was split) shows the page too.
    for (const path of [settingsLink(page), `/dashboard/${SETTINGS_PAGES[page].part}`]) router.get(path, shown);
  }
  router.get('/dashboard/time-off/remove', settingsPage(d, 'time-off'));
  router.get('/dashboard/time-off/:id/remove', removeTimeOffPage(d));
  router.get('/dashboard/welcome', welcomePage(d));
  router.get('/dashboard/keys', keys);
  router.get('/dashboard/calendar', keys);
  router.get('/dashboard/key', newKeyPage(d));
  router.get('/dashboard/jobs/:id/cancel', cancelPage(d));
  router.get('/dashboard/jobs/:id/move', movePage(d));
  router.get('/dashboard/jobs/:id/move/confirm', moveConfirmPage(d));
  router.get('/dashboard/jobs/:id/no-show', noShowPage(d));
  router.get('/dashboard/jobs/:id/on-my-way', onMyWayPage(d));
  router.get('/dashboard/jobs/:id/crew', assignJobPage(d));
  router.get('/dashboard/holds/:id/release', releaseHoldPage(d));
  router.get('/dashboard/crews', crewsPage(d));
  const crew = oneCrewPage(d);
  router.get('/dashboard/crews/:id', crew);
  for (const part of CREW_FORMS) router.get(`/dashboard/crews/:id/${part}`, crew);
  router.get('/dashboard/crews/:id/remove', removeCrewPage(d));
  const webhooks = webhooksPage(d);
  router.get('/dashboard/webhooks', webhooks);
  for (const part of WEBHOOK_FORMS) router.get(`/dashboard/webhooks/:id/${part}`, webhooks);
  router.get('/dashboard/webhooks/:id/remove', removeWebhookPage(d));
  planPages(router, d);
}

/** A recurring plan's page, and the confirmation (GET) of each change to it at the address its form posts to. */
function planPages(router: Router, d: DashboardDeps): void {
  router.get('/dashboard/plans/:id', planPage(d));
  const confirm = { crew: planCrewPage, pause: planPausePage, end: planEndPage };
  for (const part of PLAN_FORMS) router.get(`/dashboard/plans/:id/${part}`, confirm[part](d));
}

/** A recurring plan's forms (POST), each behind the session and its form token. */
function planForms(router: Router, d: DashboardDeps, signed: RequestHandler[]): void {
  const act = { crew: postPlanCrew, pause: postPlanPause, end: postPlanEnd };
  for (const part of PLAN_FORMS) router.post(`/dashboard/plans/:id/${part}`, ...signed, act[part](d));
}

const PLAN_FORMS = ['crew', 'pause', 'end'] as const;

/** The forms of each webhook, each at its own address (which shows the webhooks page on a GET). */
const WEBHOOK_FORMS = ['test', 'paused', 'retry', 'secret'] as const;

/** The forms on a crew's page, each at its own address (which shows the crew's page on a GET). */
const CREW_FORMS = ['name', 'email', 'hours', 'active', 'time-off', 'calendar'] as const;

/** The forms (POST): each behind the session and its form token, each answering 303 to the page of its result. */
function forms(router: Router, d: DashboardDeps): void {
  const form = express.urlencoded({ extended: false, limit: '32kb' });
  const signed = [form, signedInForm(d)];
  router.post('/dashboard/code', form, postCode(d));
  router.get('/dashboard/code', getCode(d));
  router.post('/dashboard/verify', form, postVerify(d));
  for (const part of ['hours', 'prices', 'add-ons', 'area', 'profile', 'mail', 'messages'] as const)
    router.post(`/dashboard/${part}`, ...signed, postSettings(d, part));
  router.post('/dashboard/time-off', ...signed, postTimeOff(d));
  router.post('/dashboard/time-off/remove', ...signed, postRemoveTimeOff(d));
  router.post('/dashboard/notifications/read', ...signed, postMarkSeen(d));
  router.post('/dashboard/key', ...signed, postNewKey(d));
  router.post('/dashboard/calendar', ...signed, postNewCalendar(d));
  router.post('/dashboard/jobs/:id/cancel', ...signed, postCancelJob(d));
  router.post('/dashboard/jobs/:id/move', ...signed, postMoveJob(d));
  router.post('/dashboard/jobs/:id/no-show', ...signed, postNoShow(d));
  router.post('/dashboard/jobs/:id/on-my-way', ...signed, postOnMyWay(d));
  router.post('/dashboard/jobs/:id/crew', ...signed, postAssignJob(d));
  router.post('/dashboard/holds/:id/release', ...signed, postReleaseHold(d));
  router.post('/dashboard/crews', ...signed, postAddCrew(d));
  const crewForms = {
    name: postCrewName,
    email: postCrewEmail,
    hours: postCrewHours,
    active: postCrewActive,
    'time-off': postCrewTimeOff,
    calendar: postCrewCalendar,
  };
  for (const part of CREW_FORMS) router.post(`/dashboard/crews/:id/${part}`, ...signed, crewForms[part](d));
  router.post('/dashboard/crews/:id/remove', ...signed, postRemoveCrew(d));
  router.post('/dashboard/webhooks', ...signed, postAddWebhook(d));
  const webhookForms = { test: postTestWebhook, paused: postPauseWebhook, retry: postRetryWebhook, secret: postRotateWebhookSecret };
  for (const part of WEBHOOK_FORMS) router.post(`/dashboard/webhooks/:id/${part}`, ...signed, webhookForms[part](d));
  router.post('/dashboard/webhooks/:id/remove', ...signed, postRemoveWebhook(d));
  planForms(router, d, signed);
  router.post('/dashboard/sign-out', form, postSignOut(d));
  clientRoutes(router, d, signed);
  propertyRoutes(router, d, signed);
}

/**
 * `{base_url}/dashboard`: the business's days for a person, one page per section (Board,
 * Today, Schedule, Clients, Crews, Properties, Leads and follow-ups, Month, Settings, Keys and calendar, Webhooks), and
 * the pages of one job or pencilled-in time. Signed in by a code mailed to the address the
 * business signed up with; a session cookie for this path only.
 * Every form posts with the session's form token and answers 303 to the page of its result;
 * changes go through the same operations (or, for a new key or calendar address, the use
 * cases) as the API, so the rules are the API's. Works without JavaScript; the copy buttons
 * are the only script. The calendar feed lives at /calendar/<secret>.ics.
 */
export function dashboardRouter(ctx: AppContext, limits: HostLimits, ops: ProDeskOperationSet, run: RunOptions<Pro>): Router {
  const d: DashboardDeps = { ctx, limits, ops, run };
  const router = Router();
  router.post('/dashboard/*path', formsFromThisSite(ctx.config.publicUrl));
  router.get('/dashboard/copy.js', copyScript);
  pages(router, d);
  forms(router, d);
  router.get('/calendar/:file', calendarFile(d));
  return router;
}
