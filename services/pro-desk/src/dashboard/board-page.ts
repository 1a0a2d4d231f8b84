import type { RequestHandler } from 'express';
import { AppError, localDate } from '@frontdesk/domain';
import { boardReader, jobMessages, listCrews } from '@frontdesk/use-cases';
import { withinRequest } from '@frontdesk/http';
import type { DashboardDeps } from './deps';
import { signedInPage } from './layout';
import { jobOf } from './lookups';
import { pageAbout } from './route-shapes';
import { boardRefusedView, boardView } from './views/board';
import { jobPageView } from './views/job-page';

/** The dispatch board and the job page its blocks open. */

/**
 * `/dashboard/board?date=`: the week holding the date (this week without one); a date that is no day answers 400 with the sentence and the date box.
 * The board is read far more often than its week changes: the rendered board is kept until the change feed hears a change to the business (boardReader).
 */
export const boardPage = (d: DashboardDeps): RequestHandler => {
  const board = boardReader(d.ctx.db, d.ctx.changes, (data, o) => boardView(o.pro, data, { today: o.today, thisWeek: o.today }));
  return signedInPage(d, {
    section: '/dashboard/board',
    async render(s, req) {
      const now = d.ctx.clock();
      const raw = req.query.date;
      // Two dates (or a nested one) are no day either: the refusal quotes what it can.
      const date =
        raw === undefined ? undefined : typeof raw === 'string' ? raw : Array.isArray(raw) ? raw.filter((x) => typeof x === 'string').join(' and ') : '?';
      try {
        const body = await withinRequest(req, () => board(s.pro, { ...(date === undefined ? {} : { date }), now }));
        return { title: 'Board', body };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const thisWeek = localDate(now, s.pro.timezone);
        return { title: 'Board', status: err.status, body: boardRefusedView(err.message, { typed: date ?? '', thisWeek }) };
      }
    },
  });
};

/** `/dashboard/jobs/:id`: one job with what can be done to it; another business's job answers 404 with the way back. */
export const jobPage = (d: DashboardDeps): RequestHandler =>
  pageAbout(d, {
    section: '/dashboard/board',
    title: 'Job',
    async render(s, req) {
      const [job, { crews }] = await withinRequest(req, () => Promise.all([jobOf(d, s, req), listCrews(d.ctx.db, s.pro.id, d.ctx.clock())]));
      const messages = await withinRequest(req, () => jobMessages(d.ctx.db, s.pro, job.id));
      return { title: `Job for ${job.customer_name}`, body: jobPageView(s.pro, job, { now: d.ctx.clock(), crews: crews.length > 1, messages }) };
    },
  });
