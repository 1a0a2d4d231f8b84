import type { RequestHandler } from 'express';
import { DEFAULT_REQUEST_DEADLINE_MS } from '@frontdesk/config';
import { answerAtDeadline } from './errors';
import type { WithinDeadline } from './idempotency';

/**
 * One deadline per request (REQUEST_DEADLINE_MS, 8 s unless set): whatever the request waits
 * on, its answer leaves by then. If the handler has not answered, the request is answered
 * 503 with Retry-After and a sentence (a page for pages, JSON-RPC on /mcp, `{error}` elsewhere),
 * and whatever the handler does later is dropped. The operations' database work is bounded by
 * the same instant (call.ts runs it under `withinDeadline`), so it cannot commit after it, and
 * so is a page's own (`withinRequest`).
 */
const deadlines = new WeakMap<object, { at: number; within?: WithinDeadline }>();

/** When the request must be answered (ms since the epoch); a request that never passed the middleware gets `fallbackMs` from now. */
export const deadlineOf = (req: object, fallbackMs = DEFAULT_REQUEST_DEADLINE_MS): number => deadlines.get(req)?.at ?? Date.now() + fallbackMs;

/**
 * Runs database work a page does itself (a use case it calls without an operation: a new key,
 * a session, a sign-up) within its request's deadline, as every operation's runs: none of it
 * commits after the request was answered 503.
 */
export function withinRequest<T>(req: object, work: () => T): T {
  const d = deadlines.get(req);
  return d?.within ? d.within(d.at, work) : work();
}

/**
 * The middleware that keeps the deadline: first on every request, after the log and the
 * security headers. `within` is the database's way of bounding work by it (withinRequest).
 */
export function requestDeadline(ms: number, within?: WithinDeadline): RequestHandler {
  return (req, res, next) => {
    deadlines.set(req, { at: Date.now() + ms, within });
    const timer = setTimeout(() => {
      if (!res.headersSent && !res.writableEnded) answerAtDeadline(req, res, ms);
    }, ms);
    res.once('close', () => clearTimeout(timer));
    next();
  };
}
