import type { RequestHandler } from 'express';
import { DEFAULT_REQUEST_DEADLINE_MS } from '@frontdesk/config';
import { answerAtDeadline } from './errors';

/**
 * One deadline per request (REQUEST_DEADLINE_MS, 8 s unless set): whatever the request waits
 * on, its answer leaves by then. If the handler has not answered, the request is answered
 * 503 with Retry-After and a sentence (a page for pages, JSON-RPC on /mcp, `{error}` elsewhere),
 * and whatever the handler does later is dropped. The operations' database work is bounded by
 * the same instant (call.ts runs it under `withinDeadline`), so it cannot commit after it.
 */
const deadlines = new WeakMap<object, number>();

/** When the request must be answered (ms since the epoch); a request that never passed the middleware gets `fallbackMs` from now. */
export const deadlineOf = (req: object, fallbackMs = DEFAULT_REQUEST_DEADLINE_MS): number => deadlines.get(req) ?? Date.now() + fallbackMs;

/** The middleware that keeps the deadline: first on every request, after the log and the security headers. */
export function requestDeadline(ms: number): RequestHandler {
  return (req, res, next) => {
    deadlines.set(req, Date.now() + ms);
    const timer = setTimeout(() => {
      if (!res.headersSent && !res.writableEnded) answerAtDeadline(req, res, ms);
    }, ms);
    res.once('close', () => clearTimeout(timer));
    next();
  };
}
