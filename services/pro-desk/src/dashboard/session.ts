import type { RequestHandler } from 'express';
import { AppError, DASHBOARD_SESSION_HOURS } from '@frontdesk/domain';
import { endDashboardSession, openDashboardSession } from '@frontdesk/use-cases';
import { codeEntryForm, formField, html, htmlText, sendPage, setErrorHeaders, trusted } from '@frontdesk/http';
import { sendCodeStep, signOutStep, startSession, type PageSession } from '../sign-in-steps';
import { COOKIE, type DashboardDeps } from './deps';
import { signInForm } from './layout';

/** Signing in to the dashboard by an emailed code, and out. */

const PURPOSE = 'sign in to your Front Desk dashboard';

/** The code step (the shared form escapes what it is given). */
const codeForm = (email: string, error = '') => trusted(codeEntryForm({ action: '/dashboard/verify', email, back: '/dashboard', error }));
const pageSession = (d: DashboardDeps): PageSession => ({ cookie: COOKIE, path: '/dashboard', secure: d.ctx.config.publicUrl.startsWith('https://') });

/** Sends a sign-in code to the business's address. */
export const postCode = (d: DashboardDeps): RequestHandler =>
  sendCodeStep({
    ...d,
    purpose: PURPOSE,
    sent: (email) => ({ title: 'Check your email', body: htmlText(codeForm(email)) }),
    refused: (message, email) => ({ title: 'Your dashboard', body: htmlText(signInForm(message, email)) }),
  });

/** Checks the code and opens a session for the business the address signed up. */
export const postVerify =
  (d: DashboardDeps): RequestHandler =>
  async (req, res) => {
    const email = formField(req.body, 'email');
    try {
      const opened = await openDashboardSession(d.ctx.db, { email, code: formField(req.body, 'code'), now: d.ctx.clock() });
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
