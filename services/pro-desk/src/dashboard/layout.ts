import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Pro } from '@frontdesk/db';
import { RESULT_NO_LONGER_SHOWN } from '@frontdesk/domain';
import type { AffectedJob } from '@frontdesk/use-cases';
import { allowOwnScripts, formField, html, sendPage, sendView, emailCodeForm, type Html } from '@frontdesk/http';
import { csrfOf, dashResults, sessionHolder, sessionOf, type DashboardDeps } from './deps';

/** What every dashboard page shares: the navigation, the signed-in guard, and results shown after a redirect. */

/** The dashboard's sections, each its own page, in the order the navigation lists them. */
export const SECTIONS = [
  ['/dashboard/board', 'Board'],
  ['/dashboard', 'Today'],
  ['/dashboard/schedule', 'Schedule'],
  ['/dashboard/clients', 'Clients'],
  ['/dashboard/crews', 'Crews'],
  ['/dashboard/properties', 'Properties'],
  ['/dashboard/leads', 'Leads and follow-ups'],
  ['/dashboard/month', 'Month'],
  ['/dashboard/settings', 'Settings'],
  ['/dashboard/keys', 'Keys and calendar'],
  ['/dashboard/webhooks', 'Webhooks'],
] as const;
export type Section = (typeof SECTIONS)[number][0];

/** A signed-in owner: the business, the session token and the session's form token. */
export interface Signed {
  pro: Pro;
  token: string;
  csrf: string;
}

/** What an action did, shown once on the page it redirects to: a sentence, jobs it touched, a secret, or what someone else answered. */
export interface Done {
  text: string;
  affected?: AffectedJob[];
  secret?: { id: string; label: string; value: string };
  quote?: { label: string; text: string };
  /** The element of the page the result is about (a webhook's entry): shown there, where the page opens, instead of at its top. */
  place?: string;
  /** Not a result: the one this address refers to is gone, and the page says so. */
  gone?: true;
}

export const csrfField = (s: Signed): Html => html`<input type="hidden" name="csrf" value="${s.csrf}" />`;

/** A form of one button that posts to `action` with the session's form token (and any hidden fields). */
export const postButton = (s: Signed, o: { action: string; label: string; hidden?: Record<string, string> }): Html =>
  html`<form method="post" action="${o.action}">
    ${csrfField(s)}${Object.entries(o.hidden ?? {}).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}" />`)}
    <button type="submit">${o.label}</button>
  </form>`;

/**
 * On Today at a desk's width (64rem and up), the way to the board: the server cannot know the
 * screen's width, so the board is first in the navigation and Today points to it where it fits
 * (docs/pages.md says why this and not a redirect).
 */
const boardHint = (current: Section | null): Html =>
  current === '/dashboard' ? html`<p class="board-hint"><a href="/dashboard/board">Open the board: this week by crew</a></p>` : html``;

/** A navigation's links, each an item, the one of the page shown marked as current. */
const navItems = (links: readonly (readonly [string, string | Html])[], current: string | null): Html[] =>
  links.map(([href, text]) => html`<li><a href="${href}" ${href === current && html` aria-current="page"`}>${text}</a></li>`);

/** The short navigation above every signed-in page's heading, with who is signed in. */
export function dashNav(s: Signed, current: Section | null): Html {
  const links = navItems(SECTIONS, current);
  return html`<header class="dash-head">
    <nav aria-label="Dashboard sections">
      <ul class="dash-nav">
        ${links}
      </ul>
    </nav>
    ${boardHint(current)}
    <p class="note">Signed in as <strong>${s.pro.owner_email ?? ''}</strong>.</p>
    <form method="post" action="/dashboard/sign-out" class="sign-out">${csrfField(s)}<button type="submit">Sign out</button></form>
  </header>`;
}

/**
 * A list beside the one thing it leads to: two columns at 1024 px and up (the list narrow, or,
 * `even`, a list and a form of like widths), one after the other on a phone.
 */
export const listAndDetail = (list: Html, detail: Html, o: { even?: boolean } = {}): Html =>
  html`<div class="split${o.even ? ' even' : ''}">
    ${list}
    <div class="detail">${detail}</div>
  </div>`;

/** The links of a list beside its detail (a page's parts, a business's crews), the current one marked. */
export function sideNav(label: string, links: readonly (readonly [string, string | Html])[], current: string | null, note?: Html): Html {
  const items = navItems(links, current);
  return html`<nav class="side-nav" aria-label="${label}">
    ${note && html`<p class="note">${note}</p>`}
    <ul>
      ${items}
    </ul>
  </nav>`;
}

/** The sign-in form of the dashboard. */
export const signInForm = (error = '', email = ''): Html =>
  emailCodeForm({
    action: '/dashboard/code',
    intro: html`Sign in with the email your business signed up with: we send you a code. New here? <a href="/signup">Sign your business up</a>.`,
    label: 'Business email',
    error,
    email,
  });

/** The address a link to the sign-in form fills in (`?email=`), where the page that links knows it. */
const emailAsked = (req: Request): string => (typeof req.query.email === 'string' ? req.query.email.slice(0, 200) : '');

const signedByRequest = new WeakMap<Request, Signed>();

/** Keeps what a guarded form did for the page at `path`, for the session that posted it alone, and answers that page's address (the 303's Location). */
export function doneAt(d: DashboardDeps, res: Response, path: string, done: Done): string {
  const ref = dashResults(d.ctx).keep(res, sessionHolder(signedOf(res.req).token), done, d.ctx.clock());
  const [where, hash] = path.split('#');
  return `${where}?done=${ref}${hash ? `#${hash}` : ''}`;
}

/**
 * What the last action did, if this address carries its reference and this browser its result,
 * kept for this very session; when the address carries one that is gone (expired, another
 * browser, or another sign-in), a sentence saying so.
 */
export function doneOf(d: DashboardDeps, req: Request): Done | null {
  const ref = typeof req.query.done === 'string' ? req.query.done : '';
  if (!ref) return null;
  const signed = signedByRequest.get(req);
  const kept = signed ? dashResults(d.ctx).value<Done>(req, sessionHolder(signed.token), ref, d.ctx.clock()) : null;
  return kept ?? { text: RESULT_NO_LONGER_SHOWN, gone: true };
}

/** A page of the signed-in dashboard: its section, what it shows, or the sign-in form when no one is signed in. */
export interface DashPage {
  section: Section | null;
  render(s: Signed, req: Request, res: Response): Promise<{ title?: string; body: Html; status?: number }>;
}

export const signedInPage =
  (d: DashboardDeps, page: DashPage): RequestHandler =>
  async (req, res) => {
    const found = await sessionOf(d, req);
    if (!found) return sendPage(res, 200, 'Your dashboard', signInForm('', emailAsked(req)));
    const s: Signed = { ...found, csrf: csrfOf(found.token) };
    signedByRequest.set(req, s);
    const shown = await page.render(s, req, res);
    allowOwnScripts(res);
    sendView(res, shown.status ?? 200, { title: shown.title ?? s.pro.name, body: shown.body, nav: dashNav(s, page.section) });
  };

/** The owner a guarded form's or a page's request belongs to (set by `signedInForm` and `signedInPage`). */
export const signedOf = (req: Request): Signed => signedByRequest.get(req)!;

/** Guards a form: the session and its form token, or a page saying to sign in again. */
export const signedInForm =
  (d: DashboardDeps): RequestHandler =>
  async (req, res, next) => {
    const found = await sessionOf(d, req);
    const sent = Buffer.from(formField(req.body, 'csrf'));
    const expected = found ? Buffer.from(csrfOf(found.token)) : Buffer.alloc(0);
    if (!found || sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
      return sendPage(res, 401, 'Your dashboard', signInForm('Your sign-in has ended or this form is out of date; sign in again.'));
    }
    signedByRequest.set(req, { ...found, csrf: expected.toString() });
    next();
  };

/** "1 job", "2 jobs". */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
