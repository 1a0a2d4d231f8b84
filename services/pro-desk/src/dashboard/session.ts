import type { RequestHandler } from 'express';
import { AppError, DASHBOARD_SESSION_HOURS } from '@frontdesk/domain';
import { endDashboardSession, openDashboardSession } from '@frontdesk/use-cases';
import type { Response } from 'express';
import { codeEntryForm, formField, html, sendPage, sessionCookie, setErrorHeaders, withinRequest } from '@frontdesk/http';
import type { AppContext } from '../context';
import { codeSentPage, codeSentSlot, sendCodeStep, signOutStep, startSession, type CodeStep, type PageSession } from '../sign-in-steps';
import { COOKIE, dashResults, firstKeySlot, type DashboardDeps } from './deps';
import { signInForm } from './layout';
import { webhookSecrets } from './webhook-pages';

/** Signing in to the dashboard by an emailed code, and out. */

const PURPOSE = 'sign in to your Front Desk dashboard';
const CODE_AT = '/dashboard/code';

/** The code step. */
const codeForm = (email: string, error = '') => codeEntryForm({ action: '/dashboard/verify', email, back: '/dashboard', error });
const pageSession = (ctx: AppContext): PageSession => ({ cookie: COOKIE, path: '/dashboard', secure: ctx.config.publicUrl.startsWith('https://') });
const SESSION_SECONDS = DASHBOARD_SESSION_HOURS * 3600;

/** Signs the browser in to the dashboard with a session opened elsewhere (sign-up's, once its code is verified). */
export function setDashboardSession(ctx: AppContext, res: Response, token: string): void {
  res.append('Set-Cookie', sessionCookie({ name: COOKIE, path: '/dashboard', secure: pageSession(ctx).secure }, { token, maxAgeSeconds: SESSION_SECONDS }));
}

/** The code step of the dashboard: its POST mails a code and answers 303 to its GET, so a reload mails nothing. */
const codeStep = (d: DashboardDeps): CodeStep & { at: string } => ({
  ...d,
  purpose: PURPOSE,
  at: CODE_AT,
  sent: (email) => ({ title: 'Check your email', body: codeForm(email) }),
  refused: (message, email) => ({ title: 'Your dashboard', body: signInForm(message, email) }),
});

/** Sends a sign-in code to the business's address. */
export const postCode = (d: DashboardDeps): RequestHandler => sendCodeStep(codeStep(d));

/** The code form for the address just mailed (a reload shows it again), or the first step. */
export const getCode = (d: DashboardDeps): RequestHandler => codeSentPage(codeStep(d));

/** Checks the code and opens a session for the business the address signed up. */
export const postVerify =
  (d: DashboardDeps): RequestHandler =>
  async (req, res) => {
    let email = '';
    try {
      email = formField(req.body, 'email');
      const opened = await withinRequest(req, () =>
        openDashboardSession(d.ctx.db, {
          email,
          code: formField(req.body, 'code'),
          now: d.ctx.clock(),
          keys: d.ctx.config.keySealer.hashKeys,
        }),
      );
      if (!opened.token) {
        return sendPage(
          res,
          404,
          'No business here yet',
          html`<p>No business has signed up with <strong>${opened.email}</strong>.</p>
            <p><a href="/signup">Sign your business up</a> or <a href="/dashboard">use another email</a>.</p>`,
        );
      }
      startSession(res, pageSession(d.ctx), { token: opened.token, maxAgeSeconds: SESSION_SECONDS });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      setErrorHeaders(res, err);
      sendPage(res, err.status, 'Check your email', codeForm(email, err.message));
    }
  };

/** Signs out: the session ends, and what its forms kept in this browser (results, sign-up's key, a webhook's secret, the address a code went to) with it. */
export const postSignOut = (d: DashboardDeps): RequestHandler =>
  signOutStep(pageSession(d.ctx), (token) => endDashboardSession(d.ctx.db, token), [
    dashResults(d.ctx),
    firstKeySlot(d.ctx),
    webhookSecrets(d),
    codeSentSlot(d.ctx, CODE_AT),
  ]);
