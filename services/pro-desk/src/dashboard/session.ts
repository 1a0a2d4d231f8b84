import type { RequestHandler } from 'express';
import { AppError, DASHBOARD_SESSION_HOURS } from '@frontdesk/domain';
import { endDashboardSession, openDashboardSession } from '@frontdesk/use-cases';
import { codeEntryForm, formField, html, sendPage, setErrorHeaders, withinRequest } from '@frontdesk/http';
import { codeSentPage, sendCodeStep, signOutStep, startSession, type CodeStep, type PageSession } from '../sign-in-steps';
import { COOKIE, type DashboardDeps } from './deps';
import { signInForm } from './layout';

/** Signing in to the dashboard by an emailed code, and out. */

const PURPOSE = 'sign in to your Front Desk dashboard';

/** The code step. */
const codeForm = (email: string, error = '') => codeEntryForm({ action: '/dashboard/verify', email, back: '/dashboard', error });
const pageSession = (d: DashboardDeps): PageSession => ({ cookie: COOKIE, path: '/dashboard', secure: d.ctx.config.publicUrl.startsWith('https://') });

/** The code step of the dashboard: its POST mails a code and answers 303 to its GET, so a reload mails nothing. */
const codeStep = (d: DashboardDeps): CodeStep & { at: string } => ({
  ...d,
  purpose: PURPOSE,
  at: '/dashboard/code',
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
      startSession(res, pageSession(d), { token: opened.token, maxAgeSeconds: DASHBOARD_SESSION_HOURS * 3600 });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      setErrorHeaders(res, err);
      sendPage(res, err.status, 'Check your email', codeForm(email, err.message));
    }
  };

export const postSignOut = (d: DashboardDeps): RequestHandler => signOutStep(pageSession(d), (token) => endDashboardSession(d.ctx.db, token));
