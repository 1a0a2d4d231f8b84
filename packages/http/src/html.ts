import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { CODE_LIFETIME_TEXT } from '@frontdesk/domain';
import { html, htmlText, safeUrl, trusted, type Html } from './template';
import { screenInput } from './input';

/**
 * The dispatch board (/dashboard/board): a table of crews by days, each day's column a grid of
 * 15-minute rows where `.rN` starts a block at row N and `.hN` makes it N rows tall (the
 * server computes both: the CSP allows no style attribute). Below 64rem the same table reads
 * as a list: each crew, then its days with jobs, each job a line.
 */
const BOARD_ROWS = Array.from({ length: 96 }, (_, i) => `.r${i + 1}{grid-row-start:${i + 1}}.h${i + 1}{grid-row-end:span ${i + 1}}`).join('');
const BOARD_STYLE = `body:has(.board){max-width:none;margin:1.5rem 1rem}.board-tools{display:flex;flex-wrap:wrap;gap:.3rem 1.5rem;align-items:center}
.board-tools a{display:inline-block;padding:.35rem 0}.board-pick{display:flex;flex-wrap:wrap;gap:0 .5rem;align-items:end}.board-pick input{width:auto}
.board{table-layout:fixed;margin-top:.8rem}.board th,.board td{border:1px solid #d8dde5;vertical-align:top;padding:0}.board caption{text-align:left;color:#5b6473;font-size:.9rem}
.board thead th{padding:.3rem;font-size:.9rem}.board .crew-col{width:8rem}.board tbody th{padding:.4rem;font-size:.9rem;overflow-wrap:anywhere}.board .today{background:#f2f6fb}
.slots{display:grid;grid-template-columns:100%;grid-auto-rows:.7rem;background:repeating-linear-gradient(#fff0 0 2.75rem,#d5dae1 2.75rem 2.8rem)}
.frame,.shade,.block{grid-column:1}.frame{grid-row-start:1}.shade{background:#2e8b5724}.shade.off{background:repeating-linear-gradient(45deg,#b0303033 0 .35rem,#b0303011 .35rem .7rem)}
.block{z-index:1;margin:1px 3px;padding:.05rem .3rem;font-size:.72rem;line-height:1.2;overflow:hidden;background:#dbe7f4;border-left:3px solid #3a6ea5;color:#1d2430;text-decoration:none;display:block}
.block span,.block strong{display:block}.block.flagged{background:#fbe4e4;border-left-color:#a4161a}.block .flag{color:#8a1216;font-weight:600}
.block:hover,.block:focus{align-self:start;min-height:100%;z-index:2;overflow:visible;box-shadow:0 2px 6px #0005}
.board .said{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}.day-name{display:none;margin:0}.board-look li{margin:.2rem 0}
.board-hint{display:none}@media (min-width:64rem){.board-hint{display:block}}
@media (max-width:63.99rem){.board,.board tbody,.board tr,.board td,.board th{display:block;width:auto;border:0}.board thead{display:none}.board caption{display:block}
.board tbody th{font-size:1.15rem;padding:1rem 0 .2rem;border-top:1px solid #d8dde5}.board td.empty{display:none}.slots{display:block;background:none}
.shade,.frame{display:none}.day-name{display:block;font-weight:600;padding-top:.5rem}.board .said{position:static;width:auto;height:auto;clip:auto;white-space:normal;font-size:.9rem;color:#5b6473;margin:0}
.block{margin:.35rem 0;padding:.4rem .6rem;font-size:.95rem}}
${BOARD_ROWS}`;

/**
 * The one style sheet of every page, inline; the CSP allows exactly this text by its hash.
 * One section per kind of page, so each area's rules stay together.
 */
const STYLE_SECTIONS = {
  base: `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1d2430}
input,button,select{font:inherit;padding:.5rem .7rem;margin:.25rem 0}input,select{width:100%;box-sizing:border-box}
.key{font-family:ui-monospace,monospace;background:#f2f4f7;padding:.6rem;word-break:break-all}
.error,.unverified{color:#a4161a}.note{color:#5b6473;font-size:.9rem}.hint{display:block;margin:0 0 .2rem}table{width:100%;border-collapse:collapse}td{padding:.3rem 0}
ul{padding-left:1.2rem}a,code{overflow-wrap:anywhere}textarea{font:inherit;width:100%;box-sizing:border-box;padding:.5rem}
.ok{color:#1b6e3a}section{border-top:1px solid #d8dde5;margin-top:2rem}th{text-align:left}fieldset{border:1px solid #d8dde5;margin:.5rem 0}
h2{font-size:1.25rem}h3{font-size:1.05rem;margin-bottom:.2rem}
input[type=checkbox],input[type=radio]{width:auto;margin-right:.4rem}[aria-invalid=true]{border:2px solid #a4161a}`,
  booking: `.times label{display:inline-block;margin:.2rem .8rem .2rem 0;min-height:1.5rem}
.days .times{padding:.3rem .6rem}.days legend{font-weight:600}.kept-lines{white-space:pre-line}@media (min-width:40.01rem){.days-hint{display:none}}
@media (max-width:40rem){.days{display:flex;gap:.6rem;overflow-x:auto;scroll-snap-type:x mandatory;padding-bottom:.4rem}.days>.times{flex:0 0 85%;box-sizing:border-box;scroll-snap-align:start;margin:0}}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.visits{padding-left:1.8rem}.visits li{margin:.5rem 0}.visits .status{color:#5b6473;font-size:.9rem}.visits .gone>span:first-child{text-decoration:line-through}
.acts{display:block}.acts a{margin-right:1.4rem;display:inline-block;padding:.25rem 0}.move-days a{display:block;padding:.35rem 0}`,
  dashboard: `.job{margin:.6rem 0;padding:.6rem;background:#f7f8fa}.job h3{margin:0}.job p{margin:.2rem 0}
.dash-head{display:flex;flex-wrap:wrap;gap:.3rem 1rem;align-items:center;justify-content:space-between;border-bottom:1px solid #d8dde5;padding-bottom:.4rem}
.dash-head nav{flex-basis:100%}.dash-nav{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.1rem 1rem}
.dash-nav a{display:inline-block;padding:.35rem 0}.dash-nav a[aria-current=page]{font-weight:700;color:#1d2430;text-decoration:none}
.dash-head p{margin:0}.sign-out button{padding:.3rem .6rem;margin:0}.job-actions a{display:inline-block;margin-right:1.2rem;padding:.3rem 0}
.done{border-left:4px solid #1b6e3a;padding-left:.8rem}.job.hold{background:#fff;border:2px dashed #8a93a3}.job.no-show{border-left:4px solid #a4161a}`,
  wide: `.side-nav ul{list-style:none;padding:0;margin:.6rem 0;display:flex;flex-wrap:wrap;gap:.1rem 1rem}.side-nav a{display:inline-block;padding:.35rem 0}
.side-nav a[aria-current=page]{font-weight:700;color:#1d2430;text-decoration:none}.side-nav .note{display:none}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:0 .8rem;align-items:end}
@media (min-width:64rem){body:has(>.dash-head){max-width:72rem}body:has(>.dash-head) main form{max-width:44rem}
.split{display:grid;grid-template-columns:minmax(12rem,17rem) minmax(0,1fr);gap:0 3rem;align-items:start}.split>.detail{max-width:44rem}
.split>.detail>section:first-child,.split>section{margin-top:0}.side-nav{position:sticky;top:1rem}.side-nav ul{display:block}.side-nav .note{display:block;margin:0 0 .5rem}
.split.even{grid-template-columns:minmax(0,3fr) minmax(0,2fr)}.split.even>.detail{max-width:none}
.add-on{display:grid;grid-template-columns:1fr 1fr;gap:0 .8rem}.add-on>label{grid-column:1/-1}}`,
  clients: `.client-list,.visit-list{list-style:none;padding:0}.client-list li,.visit-list li{padding:.45rem 0;border-bottom:1px solid #eef0f3}
.client-list .note,.visit-list .note{display:block}.client-list a[aria-current=page]{font-weight:700}.visit-list .gone strong{text-decoration:line-through}
.client-search button{margin-top:0}@media (min-width:64rem){body:has(.two-cols){max-width:70rem}
.two-cols{display:grid;grid-template-columns:minmax(16rem,1fr) 2fr;grid-template-areas:'list detail';gap:2.5rem;align-items:start}
.col-detail{grid-area:detail}.col-list{grid-area:list}}`,
  properties: `.property-list,.stays,.feeds{list-style:none;padding:0}.property-list>li,.stays>li{padding:.5rem 0;border-bottom:1px solid #eef0f3}
.stays .clean,.stays .note,.feeds span{display:block}.feeds li{margin:.3rem 0}.feeds .url{overflow-wrap:anywhere;font-size:.9rem}.stays form button{margin:.3rem 0}`,
  account: `pre,.fields{overflow-x:auto;max-width:100%}.fields td,.fields th{overflow-wrap:anywhere;vertical-align:top}.fields .fields{margin:.3rem 0}`,
  board: BOARD_STYLE,
};
export const PAGE_STYLE = Object.values(STYLE_SECTIONS).filter(Boolean).join('\n');
export const PAGE_STYLE_HASH = `sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}`;

/**
 * The style element, its text exactly PAGE_STYLE: the CSP allows the text by its hash, so not one
 * character of space may be added around it (a formatter indenting it would block every style).
 */
// prettier-ignore
const STYLE_ELEMENT = html`<style>${trusted(PAGE_STYLE)}</style>`;

/** What a page may add around its body: a short navigation above the heading. */
export interface PageFrame {
  nav?: Html;
}

export function htmlPage(title: string, body: Html, frame: PageFrame = {}): string {
  return htmlText(
    html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>${title} - Front Desk</title>
          ${STYLE_ELEMENT}
        </head>
        <body>
          ${frame.nav ?? ''}
          <main>
            <h1>${title}</h1>
            ${body}
          </main>
        </body>
      </html>`,
  );
}
/** The sentence a refused form or page starts with; nothing when there is none. */
export const errorLine = (error: string): Html => (error ? html`<p class="error" role="alert">${error}</p>` : html``);

/**
 * A field of a posted form (or JSON body) as text; empty when it is missing. Text PostgreSQL
 * cannot store (a NUL byte, a broken surrogate) is refused here with the operations' own
 * sentence (a 400), so no page or sign-in step hands it to a query.
 */
export function formField(body: unknown, name: string): string {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
  screenInput({ [name]: text });
  return text;
}

/** Sends a whole HTML document, never cached: every page here shows something about one person. */
export function sendHtml(res: Response, status: number, html: string): void {
  res.status(status).type('html').setHeader('Cache-Control', 'no-store').send(html);
}

/** Sends a page of the house layout (see sendHtml). */
export function sendPage(res: Response, status: number, title: string, body: Html): void {
  sendHtml(res, status, htmlPage(title, body));
}

/** A page as a view module answers it: its title, its body, and where it sits (the navigation). */
export interface PageView extends PageFrame {
  title: string;
  body: Html;
}

/** Sends a view in the house layout. */
export function sendView(res: Response, status: number, view: PageView): void {
  sendHtml(res, status, htmlPage(view.title, view.body, view));
}

/**
 * Forms post only from this site: a browser sends Origin on a POST, so a form on another
 * site is refused. Routes under `apiPrefix` take JSON from assistants, which send none.
 */
export function formsFromThisSite(publicUrl: string, apiPrefix?: string): RequestHandler {
  const ownOrigin = new URL(publicUrl).origin;
  return (req, res, next) => {
    const origin = req.get('origin');
    if (req.method === 'POST' && origin && origin !== ownOrigin && !(apiPrefix && req.originalUrl.startsWith(apiPrefix))) {
      sendView(res, 403, { title: 'Not allowed', body: errorLine('This form can only be sent from this site.') });
      return;
    }
    next();
  };
}

/** The first step of signing in by emailed code: the address. */
export const emailCodeForm = (o: { action: string; intro: Html; error?: string; email?: string; label?: string }): Html =>
  html`${errorLine(o.error ?? '')}
    <p>${o.intro}</p>
    <form method="post" action="${safeUrl(o.action)}">
      <label>${o.label ?? 'Email'} <input type="email" name="email" required maxlength="200" autocomplete="email" value="${o.email ?? ''}" /></label>
      <button type="submit">Send me a code</button>
    </form>`;

/** The second step: the code mailed to the address. */
export const codeEntryForm = (o: { action: string; email: string; back: string; error?: string }): Html =>
  html`${errorLine(o.error ?? '')}
    <p>We sent a 6-digit code to <strong>${o.email}</strong>. ${CODE_LIFETIME_TEXT}</p>
    <form method="post" action="${safeUrl(o.action)}">
      <input type="hidden" name="email" value="${o.email}" />
      <label>Code <input name="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" required autocomplete="one-time-code" /></label>
      <button type="submit">Sign in</button>
    </form>
    <p class="note"><a href="${safeUrl(o.back)}">Use another email</a></p>`;

/** A session cookie's value, if the request carries one of the shape our tokens have. */
export function cookieValue(req: Request, name: string): string | null {
  const header = req.get('cookie') ?? '';
  const match = new RegExp(`(?:^|;\\s*)${name}=([A-Za-z0-9_-]+)`).exec(header);
  return match?.[1] ?? null;
}

/** A session cookie for a page's own path: script cannot read it and other sites never send it. */
export function sessionCookie(c: { name: string; path: string; secure: boolean }, value: { token: string; maxAgeSeconds: number }): string {
  return `${c.name}=${value.token}; Path=${c.path}; HttpOnly; SameSite=Strict; Max-Age=${value.maxAgeSeconds}${c.secure ? '; Secure' : ''}`;
}
