import type { RequestHandler } from 'express';
import { DASHBOARD_SESSION_HOURS } from '@frontdesk/domain';
import { endDashboardSession, openDashboardSession } from '@frontdesk/use-cases';
import type { Response } from 'express';
import { codeEntryForm, formField, html, sendPage, sessionCookie, withinRequest } from '@frontdesk/http';
import type { AppContext } from '../context';
import { codeSentPage, codeSentSlot, codeStepAt, sendCodeStep, signOutStep, startSession, typedEmailStep, type PageSession } from '../sign-in-steps';
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
const codeStep = (d: DashboardDeps) =>
  codeStepAt(d, CODE_AT, {
    purpose: PURPOSE,
    sent: (email) => ({ title: 'Check your email', body: codeForm(email) }),
    first: { title: 'Your dashboard', form: signInForm },
  });

/** Sends a sign-in code to the business's address. */
export const postCode = (d: DashboardDeps): RequestHandler => sendCodeStep(codeStep(d));

/** The code form for the address just mailed (a reload shows it again), or the first step. */
export const getCode = (d: DashboardDeps): RequestHandler => codeSentPage(codeStep(d));

/** Checks the code and opens a session for the business the address signed up. */
export const postVerify = (d: DashboardDeps): RequestHandler =>
  typedEmailStep(
    async (email, req, res) => {
      const opened = await withinRequest(req, () =>
        openDashboardSession(d.ctx.db, { email, code: formField(req.body, 'code'), now: d.ctx.clock(), keys: d.ctx.config.keySealer.hashKeys }),
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
    },
    (message, email) => ({ title: 'Check your email', body: codeForm(email, message) }),
  );

/** Signs out: the session ends, and what its forms kept in this browser (results, sign-up's key, a webhook's secret, the address a code went to) with it. */
export const postSignOut = (d: DashboardDeps): RequestHandler =>
  signOutStep(pageSession(d.ctx), (token) => endDashboardSession(d.ctx.db, token), [
    dashResults(d.ctx),
    firstKeySlot(d.ctx),
    webhookSecrets(d),
    codeSentSlot(d.ctx, CODE_AT),
  ]);
