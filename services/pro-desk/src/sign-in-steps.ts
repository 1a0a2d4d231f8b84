import type { RequestHandler, Response } from 'express';
import { AppError } from '@frontdesk/domain';
import { requestSignInCode } from '@frontdesk/use-cases';
import { cookieValue, formField, sendPage, sessionCookie, setErrorHeaders, takeSignInCode, type HostLimits } from '@frontdesk/http';
import type { AppContext } from './context';

/** A page as a step shows it. */
export interface Shown {
  title: string;
  body: string;
}

/** The first step of every sign-in page of this host (sign-up, dashboard, /key): what to mail a code for, and what to show next. */
export interface CodeStep {
  ctx: AppContext;
  limits: HostLimits;
  /** What the code is for, as the mail says it. */
  purpose: string;
  /** The next page, once the code is on its way to the (normalized) address. */
  sent(email: string): Shown;
  /** The same page again with the refusal, keeping what was typed. */
  refused(message: string, email: string): Shown;
}

/** Mails a sign-in code to the address posted, within the shared limits per address and per client; a refusal is shown on the form. */
export const sendCodeStep =
  (s: CodeStep): RequestHandler =>
  async (req, res) => {
    const email = formField(req.body, 'email');
    try {
      await takeSignInCode(s.limits, req, email);
      const sent = await requestSignInCode(s.ctx.db, email, s.ctx.clock(), s.purpose);
      const next = s.sent(sent.email);
      sendPage(res, 200, next.title, next.body);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      setErrorHeaders(res, err);
      const again = s.refused(err.message, email);
      sendPage(res, err.status, again.title, again.body);
    }
  };

/** A page's session: its cookie, the path it is sent to (the page itself), and whether only over https. */
export interface PageSession {
  cookie: string;
  path: string;
  secure: boolean;
}

/** Sets the session's cookie and goes back to the page, which is now signed in. */
export function startSession(res: Response, s: PageSession, o: { token: string; maxAgeSeconds: number }): void {
  res.setHeader('Set-Cookie', sessionCookie({ name: s.cookie, path: s.path, secure: s.secure }, o));
  res.redirect(303, s.path);
}

/** Ends the session the cookie names, clears the cookie, and goes back to the page's sign-in. */
export const signOutStep =
  (s: PageSession, end: (token: string) => Promise<void>): RequestHandler =>
  async (req, res) => {
    const token = cookieValue(req, s.cookie);
    if (token) await end(token);
    res.setHeader('Set-Cookie', sessionCookie({ name: s.cookie, path: s.path, secure: s.secure }, { token: '', maxAgeSeconds: 0 }));
    res.redirect(303, s.path);
  };
