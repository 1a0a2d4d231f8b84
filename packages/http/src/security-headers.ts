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
function helmetFor(publicUrl: string): RequestHandler {
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

/**
 * The headers helmet writes, asked of it once: its answer depends on its options alone, never
 * on the request, so it runs at start-up on a stand-in response that records them. Null if it
 * did not finish there and then (a later helmet that waits on something): it then runs per request.
 */
function headersOf(middleware: RequestHandler): [name: string, value: string | string[]][] | null {
  const headers: [string, string | string[]][] = [];
  const recorder = {
    setHeader: (name: string, value: string | string[]) => void headers.push([name, value]),
    removeHeader: () => {},
    getHeader: () => undefined,
  };
  let done = false;
  void middleware({ headers: {} } as never, recorder as never, () => (done = true));
  return done ? headers : null;
}

/**
 * Every answer's browser protections and `Cache-Control: no-store` (answers carry keys, tokens
 * and customers' names, phones and addresses: no cache may keep them; an answer that may be
 * kept says so itself), computed once and written in one pass per response.
 */
export function securityHeaders(publicUrl: string): RequestHandler {
  const protections = helmetFor(publicUrl);
  const recorded = headersOf(protections);
  if (!recorded) {
    return (req, res, next) => {
      res.setHeader('Cache-Control', 'no-store');
      void protections(req, res, next);
    };
  }
  const headers = [...recorded, ['Cache-Control', 'no-store']] as const;
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
