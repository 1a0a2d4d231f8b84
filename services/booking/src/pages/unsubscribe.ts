import type { RequestHandler } from 'express';
import { UNSUBSCRIBE_PAGE } from '@frontdesk/domain';
import { sendView, withinRequest } from '@frontdesk/http';
import { unsubscribeByLink, unsubscribeLinkInfo } from '@frontdesk/use-cases';
import type { AppContext } from '../context';
import { unsubscribeGone, unsubscribeView } from './unsubscribe-view';

/**
 * The unsubscribe link every reminder and review request carries. GET only asks (a link
 * scanner that follows it changes nothing); the button's POST, or a mail program's RFC 8058
 * one-click POST, unsubscribes. The token is the credential, so the POST takes no cookie and
 * no origin check: a mail provider posts it from its own servers.
 */
const tokenOf = (params: Record<string, string | string[] | undefined>) => String(params.token ?? '');

export const getUnsubscribePage =
  (ctx: Pick<AppContext, 'db'>): RequestHandler =>
  async (req, res) => {
    const token = tokenOf(req.params);
    const link = await withinRequest(req, () => unsubscribeLinkInfo(ctx.db, token));
    if (!link) return sendView(res, 404, { title: UNSUBSCRIBE_PAGE.title, body: unsubscribeGone() });
    sendView(res, 200, { title: UNSUBSCRIBE_PAGE.title, body: unsubscribeView({ token, ...link }) });
  };

/** The button (303 back to the page, which then says it is done: a reload repeats nothing) or the one-click POST (200). */
export const postUnsubscribe =
  (ctx: Pick<AppContext, 'db' | 'clock'>): RequestHandler =>
  async (req, res) => {
    const token = tokenOf(req.params);
    const done = await withinRequest(req, () => unsubscribeByLink(ctx.db, token, ctx.clock()));
    if (!done) return sendView(res, 404, { title: UNSUBSCRIBE_PAGE.title, body: unsubscribeGone() });
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (body['List-Unsubscribe'] === 'One-Click') {
      return sendView(res, 200, { title: UNSUBSCRIBE_PAGE.title, body: unsubscribeView({ token, proName: done.proName, done: true }) });
    }
    res.redirect(303, `/unsubscribe/${token}`);
  };
