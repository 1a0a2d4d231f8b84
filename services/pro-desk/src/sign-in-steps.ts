import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { AppError, CODE_STEP_GONE } from '@frontdesk/domain';
import { requestSignInCode } from '@frontdesk/use-cases';
import {
  cookieValue,
  formField,
  formsFromThisSite,
  sendView,
  sessionCookie,
  setErrorHeaders,
  ShownOnce,
  endVisit,
  takeSignInCode,
  visitIn,
  visitOf,
  withinRequest,
  type HostLimits,
  type Html,
} from '@frontdesk/http';
import type { AppContext } from './context';

/** A page as a step shows it. */
export interface Shown {
  title: string;
  body: Html;
}

/** The first step of every sign-in page of this host (sign-up, dashboard, /key): what to mail a code for, and what to show next. */
export interface CodeStep {
  ctx: AppContext;
  limits: HostLimits;
  /** What the code is for, as the mail says it. */
  purpose: string;
  /**
   * The address of the step's own POST (`/key/code`). Given, the POST answers 303 to the same
   * address with a reference to the address the code went to, and the GET there shows `sent`:
   * a reload shows the code form again and never mails another code.
   */
  at?: string;
  /** The next page, once the code is on its way to the (normalized) address. */
  sent(email: string): Shown;
  /** The same page again with the refusal, keeping what was typed. */
  refused(message: string, email: string): Shown;
}

/** The code step of a sign-in page, at `at`: a code for `purpose`, then `sent`; a refusal shows the page's first form again with it. */
export const codeStepAt = (
  d: Pick<CodeStep, 'ctx' | 'limits'>,
  at: string,
  o: { purpose: string; sent: (email: string) => Shown; first: { title: string; form(error: string, email: string): Html } },
): CodeStep & { at: string } => ({
  ...d,
  at,
  purpose: o.purpose,
  sent: o.sent,
  refused: (message, email) => ({ title: o.first.title, body: o.first.form(message, email) }),
});

/**
 * Where the address a code went to is kept between the POST and its GET: a sealed cookie under
 * the step's page (the page `at` lives under), held by this browser's visit: no one is signed in yet.
 */
export const codeSentSlot = (ctx: AppContext, at: string): ShownOnce =>
  new ShownOnce(ctx.config.keySealer, {
    name: 'fd_code_sent',
    path: at.slice(0, at.lastIndexOf('/')) || '/',
    secure: ctx.config.publicUrl.startsWith('https://'),
  });
const sentTo = (s: CodeStep): ShownOnce => codeSentSlot(s.ctx, s.at!);

/**
 * A step's POST that takes the address typed: `act` with it; a refusal shows `refused` with
 * what was typed, under the refusal's status and headers. The field is read inside: a field
 * that cannot be stored is said on the form like any refusal.
 */
export const typedEmailStep =
  (act: (email: string, req: Request, res: Response) => Promise<void>, refused: (message: string, email: string) => Shown): RequestHandler =>
  async (req, res) => {
    let email = '';
    try {
      email = formField(req.body, 'email');
      await act(email, req, res);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      setErrorHeaders(res, err);
      sendView(res, err.status, refused(err.message, email));
    }
  };

/** Mails a sign-in code to the address posted, within the shared limits per address and per client; a refusal is shown on the form. */
export const sendCodeStep = (s: CodeStep): RequestHandler =>
  typedEmailStep(
    async (email, req, res) => {
      await takeSignInCode(s.limits, req, email);
      const sent = await withinRequest(req, () =>
        requestSignInCode(s.ctx.db, email, s.ctx.clock(), { purpose: s.purpose, keys: s.ctx.config.keySealer.hashKeys }),
      );
      if (s.at) {
        const holder = visitOf(req, res, s.ctx.config.publicUrl.startsWith('https://'));
        return res.redirect(303, `${s.at}?sent=${sentTo(s).keep(res, holder, sent.email, s.ctx.clock())}`);
      }
      sendView(res, 200, s.sent(sent.email));
    },
    (message, email) => s.refused(message, email),
  );

/**
 * The GET of a code step's address: the code form for the address the POST mailed (a reload
 * shows it again, nothing is sent), or the first step's form when that is gone or never was.
 */
export const codeSentPage =
  (s: CodeStep & { at: string }): RequestHandler =>
  (req: Request, res: Response) => {
    const ref = typeof req.query.sent === 'string' ? req.query.sent : '';
    const email = ref ? sentTo(s).value<string>(req, visitIn(req), ref, s.ctx.clock()) : null;
    sendView(res, 200, typeof email === 'string' ? s.sent(email) : s.refused(ref ? CODE_STEP_GONE : '', ''));
  };

/** A page's session: its cookie, the path it is sent to (the page itself), and whether only over https. */
export interface PageSession {
  cookie: string;
  path: string;
  secure: boolean;
}

/** Sets the session's cookie and goes back to the page, which is now signed in. */
export function startSession(res: Response, s: PageSession, o: { token: string; maxAgeSeconds: number }): void {
  res.append('Set-Cookie', sessionCookie({ name: s.cookie, path: s.path, secure: s.secure }, o));
  res.redirect(303, s.path);
}

/**
 * Ends the session the cookie names, clears the cookie and every result the page keeps in this
 * browser (`kept`: what a form made, the address a code went to) and ends the visit, then goes
 * back to the page's sign-in: the next person on this browser sees nothing of the last one's.
 */
export const signOutStep =
  (s: PageSession, end: (token: string) => Promise<void>, kept: ShownOnce[]): RequestHandler =>
  async (req, res) => {
    const token = cookieValue(req, s.cookie);
    if (token) await withinRequest(req, () => end(token));
    res.append('Set-Cookie', sessionCookie({ name: s.cookie, path: s.path, secure: s.secure }, { token: '', maxAgeSeconds: 0 }));
    for (const slot of kept) slot.forget(res);
    endVisit(res, s.secure);
    res.redirect(303, s.path);
  };

/** A GET of an address that only takes a form's POST: back to the page the form is on, never an API's JSON 404. */
export const backTo =
  (path: string): RequestHandler =>
  (_req, res) =>
    res.redirect(303, path);

/**
 * The router of a sign-in page under `path`, with its code step's POST and GET: its forms post
 * only from this site (its API, under `path/api/`, takes JSON from assistants). With the body
 * parsers, limited to `limit`, for its other forms and its API.
 */
export function signInRouter(
  ctx: AppContext,
  path: string,
  o: { limit: string; step: CodeStep & { at: string } },
): { router: Router; form: RequestHandler; json: RequestHandler } {
  const form = express.urlencoded({ extended: false, limit: o.limit });
  const router = Router();
  router.post(`${path}/*path`, formsFromThisSite(ctx.config.publicUrl, `${path}/api/`));
  router.post(o.step.at, form, sendCodeStep(o.step));
  router.get(o.step.at, codeSentPage(o.step));
  return { router, form, json: express.json({ limit: o.limit }) };
}
