import express, { Router, type RequestHandler } from 'express';
import type { Pro } from '@frontdesk/db';
import { NO_CALENDAR_AT_ADDRESS } from '@frontdesk/domain';
import { calendarFeed } from '@frontdesk/use-cases';
import { formsFromThisSite, type HostLimits, type RunOptions } from '@frontdesk/http';
import type { AppContext } from '../context';
import type { ProDeskOperationSet } from '../operations';
import { postMarkRead, postNewCalendar, postNewKey, postRemoveTimeOff, postSettings, postTimeOff } from './actions';
import type { DashboardDeps } from './deps';
import { SETTINGS_FORMS } from './forms';
import { getDashboard, postCode, postSignOut, postVerify } from './session';
import { COPY_SCRIPT } from './view';

const copyScript: RequestHandler = (_req, res) => {
  res.type('text/javascript').setHeader('Cache-Control', 'public, max-age=3600').send(COPY_SCRIPT);
};

/** The calendar feed: read fresh on every fetch, so a calendar sees a change on its next poll. */
const calendarFile =
  (d: DashboardDeps): RequestHandler =>
  async (req, res) => {
    const match = /^([A-Za-z0-9_-]{43})\.ics$/.exec(String(req.params.file));
    const ics = match ? await calendarFeed(d.ctx.db, match[1]!, new URL(d.ctx.config.publicUrl).host, d.ctx.clock()) : undefined;
    if (!ics) {
      res.status(404).json({ error: NO_CALENDAR_AT_ADDRESS });
      return;
    }
    res.status(200).type('text/calendar; charset=utf-8').setHeader('Cache-Control', 'no-cache').send(ics);
  };

/**
 * `{base_url}/dashboard`: the business's week for a person. Signed in by a code mailed to
 * the address the business signed up with; a session cookie for this path only. Every
 * form posts here with the session's form token, and changes go through the same
 * operations (or, for a new key or calendar address, the use cases) as the API, so the rules
 * are the API's. Works without JavaScript; the copy buttons are the only script. The
 * calendar feed lives at /calendar/<secret>.ics.
 */
export function dashboardRouter(ctx: AppContext, limits: HostLimits, ops: ProDeskOperationSet, run: RunOptions<Pro>): Router {
  const d: DashboardDeps = { ctx, limits, ops, run };
  const form = express.urlencoded({ extended: false, limit: '32kb' });
  const router = Router();
  router.post('/dashboard/*path', formsFromThisSite(ctx.config.publicUrl));
  router.get('/dashboard/copy.js', copyScript);
  router.get('/dashboard', getDashboard(d));
  router.post('/dashboard/code', form, postCode(d));
  router.post('/dashboard/verify', form, postVerify(d));
  for (const part of Object.keys(SETTINGS_FORMS)) router.post(`/dashboard/${part}`, ...postSettings(d, part));
  router.post('/dashboard/time-off', ...postTimeOff(d));
  router.post('/dashboard/time-off/remove', ...postRemoveTimeOff(d));
  router.post('/dashboard/notifications/read', ...postMarkRead(d));
  router.post('/dashboard/key', ...postNewKey(d));
  router.post('/dashboard/calendar', ...postNewCalendar(d));
  router.post('/dashboard/sign-out', form, postSignOut(d));
  router.get('/calendar/:file', calendarFile(d));
  return router;
}
