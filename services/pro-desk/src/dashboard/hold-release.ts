import type { Request, RequestHandler } from 'express';
import { HOLD_GONE_TITLE, formatLabel, holdGoneOnDashboard, holdNotOnDashboard, holdReleasedOnDashboard, inOwnerWords } from '@frontdesk/domain';
import { dashboardHold, listCrews } from '@frontdesk/use-cases';
import type { Html, Problem } from '@frontdesk/http';
import { runForm, type DashboardDeps } from './deps';
import { doneAt, type Signed } from './layout';
import { dashForm, pageAbout } from './route-shapes';
import { RELEASE_BACK_PATH, releaseBackOf, releaseHoldView } from './views/holds';

/**
 * Releasing a time the business pencilled in (a hold on its own host): a page that says what
 * releasing does, then a form that runs release_hold, the operation an assistant calls, and
 * answers 303 to the page the release link was on. A time that no longer counts (released,
 * run out or booked) is said in words on both, and the form changes nothing then.
 */

const TITLE = 'Release this time?';

/** The pencilled-in time the address names, this business's and taken on its own host, or a refusal the page shows. */
async function holdOf(d: DashboardDeps, s: Signed, req: Request) {
  const found = await dashboardHold(d.ctx.db, s.pro, String(req.params.id), d.ctx.clock());
  if (!found) throw holdNotOnDashboard();
  return found;
}

/** Where the release goes back to: `back` of the link (GET) or of the form (POST). */
const backOf = (req: Request) => releaseBackOf(req.query.back ?? (req.body as Record<string, unknown> | undefined)?.back);

/** The page, headed by its question while the time still counts, else by what became of it. */
async function releasePage(d: DashboardDeps, s: Signed, req: Request, problem?: Problem): Promise<{ title: string; body: Html }> {
  const now = d.ctx.clock();
  const [{ hold, gone }, { crews }] = await Promise.all([holdOf(d, s, req), listCrews(d.ctx.db, s.pro.id, now)]);
  const body = releaseHoldView(s, hold, { now, gone, back: backOf(req), crews: crews.length > 1, ...(problem ? { problem } : {}) });
  return { title: gone ? HOLD_GONE_TITLE : TITLE, body };
}

export const releaseHoldPage = (d: DashboardDeps): RequestHandler =>
  pageAbout(d, { section: '/dashboard/schedule', title: TITLE, render: (s, req) => releasePage(d, s, req) });

export const postReleaseHold = (d: DashboardDeps): RequestHandler =>
  dashForm({
    title: TITLE,
    labels: {},
    section: '/dashboard/schedule',
    find: (s, req) => holdOf(d, s, req),
    async act({ hold, gone }, { s, req, res }) {
      // The operation releases again without harm, so a time already gone is passed to it too; it says when it was booked meanwhile.
      const released = await runForm(d, { op: d.ops.release_hold, input: { hold_id: hold.id }, words: inOwnerWords }, req, s.pro);
      const label = formatLabel(hold.starts_at, s.pro.timezone, d.ctx.clock());
      const why = released.status === 'used' ? 'used' : gone;
      const text = why ? holdGoneOnDashboard(why, label, hold.lead_name) : holdReleasedOnDashboard(label, hold.lead_name);
      return doneAt(d, res, RELEASE_BACK_PATH[backOf(req)], { text });
    },
    page: async ({ s, req, problem }) => (await releasePage(d, s, req, problem)).body,
  });
