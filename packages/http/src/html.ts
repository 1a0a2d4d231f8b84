import { createHash } from 'node:crypto';
import type { RequestHandler, Response } from 'express';

/** Server-rendered pages: plain HTML that works without JavaScript. */
export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The one style sheet of every page, inline; the CSP allows exactly this text by its hash. */
export const PAGE_STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1d2430}
input,button,select{font:inherit;padding:.5rem .7rem;margin:.25rem 0}input,select{width:100%;box-sizing:border-box}
.key{font-family:ui-monospace,monospace;background:#f2f4f7;padding:.6rem;word-break:break-all}
.error,.unverified{color:#a4161a}.note{color:#5b6473;font-size:.9rem}table{width:100%;border-collapse:collapse}td{padding:.3rem 0}
ul{padding-left:1.2rem}a,code{overflow-wrap:anywhere}`;
export const PAGE_STYLE_HASH = `sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}`;

export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} - Front Desk</title>
<style>${PAGE_STYLE}</style>
</head><body><main><h1>${esc(title)}</h1>${body}</main></body></html>`;
}
export const errorLine = (error: string) => (error ? `<p class="error" role="alert">${esc(error)}</p>` : '');

/** A field of a posted form (or JSON body) as text; empty when it is missing. */
export function formField(body: unknown, name: string): string {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

/** Sends a page that is never cached: every page here shows something about one person. */
export function sendPage(res: Response, status: number, title: string, body: string): void {
  res.status(status).type('html').setHeader('Cache-Control', 'no-store').send(htmlPage(title, body));
}

/**
 * Forms post only from this site: a browser sends Origin on a POST, so a form on another
 * site is refused. Routes under `apiPrefix` take JSON from assistants, which send none.
 */
export function formsFromThisSite(publicUrl: string, apiPrefix: string): RequestHandler {
  const ownOrigin = new URL(publicUrl).origin;
  return (req, res, next) => {
    const origin = req.get('origin');
    if (req.method === 'POST' && origin && origin !== ownOrigin && !req.originalUrl.startsWith(apiPrefix)) {
      sendPage(res, 403, 'Not allowed', '<p class="error">This form can only be sent from this site.</p>');
      return;
    }
    next();
  };
}
