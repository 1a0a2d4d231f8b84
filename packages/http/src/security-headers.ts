import type { RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { PAGE_STYLE_HASH } from './html';

/**
 * Lets the page being answered send its form on to another origin: the OAuth consent page,
 * whose answer redirects to the client's redirect URI (browsers apply form-action to that
 * redirect too).
 */
export function allowFormTarget(res: Response, url: string): void {
  // helmet wrote the header when the request came in; widen its form-action now.
  const csp = res.getHeader('Content-Security-Policy');
  if (typeof csp === 'string') res.setHeader('Content-Security-Policy', csp.replace("form-action 'self'", `form-action 'self' ${new URL(url).origin}`));
}

/** Lets a page run this host's own scripts (the dashboard's copy buttons); every other page runs none. */
export function allowOwnScripts(res: Response): void {
  const csp = res.getHeader('Content-Security-Policy');
  if (typeof csp === 'string') res.setHeader('Content-Security-Policy', `${csp};script-src 'self'`);
}

/**
 * Browser protections on every answer (helmet): nosniff, no framing, no referrer to other sites, and a CSP
 * that allows no script at all, only the pages' own style sheet, and forms posted to this
 * host. HSTS only when the host is served over https.
 */
export function securityHeaders(publicUrl: string): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        styleSrc: [`'${PAGE_STYLE_HASH}'`],
        imgSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
    },
    strictTransportSecurity: publicUrl.startsWith('https:') ? { maxAge: 31_536_000 } : false,
    xFrameOptions: { action: 'deny' },
    // same-origin, not no-referrer: under no-referrer browsers send "Origin: null" with a form post, and the
    // pages' same-origin check would refuse their own forms. Nothing leaves for another site either way.
    referrerPolicy: { policy: 'same-origin' },
  }) as RequestHandler;
}

/** Answers carry keys, tokens and customers' names, phones and addresses: no cache may keep them. */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};
