import { timingSafeEqual } from 'node:crypto';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { AppError, DASHBOARD_SESSION_HOURS } from '@frontdesk/domain';
import type { Pro } from '@frontdesk/db';
import { endDashboardSession, openDashboardSession } from '@frontdesk/use-cases';
import { codeEntryForm, emailCodeForm, esc, formField, sendPage, setErrorHeaders } from '@frontdesk/http';
import { sendCodeStep, signOutStep, startSession, type PageSession } from '../sign-in-steps';
import { COOKIE, csrfOf, sessionOf, showDashboard, type DashboardDeps } from './deps';

const PURPOSE = 'sign in to your Front Desk dashboard';

export const signInForm = (error = '', email = '') =>
  emailCodeForm({
    action: '/dashboard/code',
    intro: 'Sign in with the email your business signed up with: we send you a code. New here? <a href="/signup">Sign your business up</a>.',
    label: 'Business email',
    error,
    email,
  });
const codeForm = (email: string, error = '') => codeEntryForm({ action: '/dashboard/verify', email, back: '/dashboard', error });
const pageSession = (d: DashboardDeps): PageSession => ({ cookie: COOKIE, path: '/dashboard', secure: d.ctx.config.publicUrl.startsWith('https://') });

/** `/dashboard`: the business's week when signed in, else the sign-in form. */
export const getDashboard =
  (d: DashboardDeps): RequestHandler =>
  async (req, res) => {
    const s = await sessionOf(d, req);
    if (!s) return sendPage(res, 200, 'Your dashboard', signInForm());
    await showDashboard(d, res, { status: 200, ...s });
  };

/** Sends a sign-in code to the business's address. */
export const postCode = (d: DashboardDeps): RequestHandler =>
  sendCodeStep({
    ...d,
    purpose: PURPOSE,
    sent: (email) => ({ title: 'Check your email', body: codeForm(email) }),
    refused: (message, email) => ({ title: 'Your dashboard', body: signInForm(message, email) }),
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
          `<p>No business has signed up with <strong>${esc(opened.email)}</strong>.</p><p><a href="/signup">Sign your business up</a> or <a href="/dashboard">use another email</a>.</p>`,
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

/** A signed-in form's work: the request, the response, the business and its session token. */
export type SignedInAction = (req: Request, res: Response, s: { pro: Pro; token: string }) => Promise<void>;

const form = express.urlencoded({ extended: false, limit: '32kb' });

/** A form of a signed-in page: the session and its form token, or a page saying to sign in again; a refusal shows the business as it was. */
export function signedInPost(d: DashboardDeps, act: SignedInAction): RequestHandler[] {
  const handler: RequestHandler = async (req, res) => {
    const s = await sessionOf(d, req);
    const sent = Buffer.from(formField(req.body, 'csrf'));
    const expected = s ? Buffer.from(csrfOf(s.token)) : Buffer.alloc(0);
    if (!s || sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
      return sendPage(res, 401, 'Your dashboard', signInForm('Your sign-in has ended or this form is out of date; sign in again.'));
    }
    try {
      await act(req, res, s);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      setErrorHeaders(res, err);
      // Nothing was written: the page shows the business as it was, with the reason.
      await showDashboard(d, res, { status: err.status, ...s, notice: { ok: false, text: err.message } });
    }
  };
  return [form, handler];
}
