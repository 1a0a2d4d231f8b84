import { subscribe } from 'node:diagnostics_channel';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { DEFAULT_REQUEST_DEADLINE_MS } from '@frontdesk/config';
import { deadlinePassed, requestWords } from '@frontdesk/domain';
import { UNAVAILABLE_RETRY_AFTER_SECONDS, wantsPage } from './errors';
import { errorLine, sendView } from './html';
import type { WithinDeadline } from './idempotency';

/**
 * One deadline per request (REQUEST_DEADLINE_MS, 8 s unless set): whatever the request waits
 * on, its answer leaves by then. If the handler has not answered, the request is answered
 * 503 with Retry-After and a sentence (a page for pages, JSON-RPC on /mcp, `{error}` elsewhere),
 * and whatever the handler does later is dropped. The operations' database work is bounded by
 * the same instant (call.ts runs it under `withinDeadline`), so it cannot commit after it, and
 * so is a page's own (`withinRequest`). An error met once the deadline has come (the database
 * work it cut, most often) is answered as the deadline, never as the error: `answerIfLate`.
 *
 * No timer and no listener per request: the requests of one middleware share one deadline
 * length, so they wait in arrival order, which is deadline order, in one list with one timer
 * set for the first deadline of the list. A request leaves the list when its answer is
 * finished, told by Node's `http.server.response.finish` channel (one subscriber for the
 * process), or when its deadline comes.
 */
class Waiting {
  prev: Waiting | null = null;
  next: Waiting | null = null;
  /** In its queue's list, not yet answered. */
  linked = false;
  constructor(
    /** When the request must be answered (ms since the epoch, as Date.now() reads). */
    readonly at: number,
    readonly queue: DeadlineQueue,
    public req: Request | null,
    public res: Response | null,
  ) {}
}

/** The requests of one middleware that wait for their answer, first deadline first, and the one timer of the first. */
class DeadlineQueue {
  private head: Waiting | null = null;
  private tail: Waiting | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** When the timer is set for (ms since the epoch). */
  private timerAt = Infinity;

  constructor(
    readonly ms: number,
    readonly within: WithinDeadline | undefined,
  ) {}

  add(w: Waiting): void {
    // Last, unless the clock was set back since the last request came: then before the later deadlines.
    let before = this.tail;
    while (before && before.at > w.at) before = before.prev;
    w.prev = before;
    w.next = before ? before.next : this.head;
    if (w.next) w.next.prev = w;
    else this.tail = w;
    if (before) before.next = w;
    else this.head = w;
    w.linked = true;
    if (w.at < this.timerAt) this.setTimer(w.at);
  }

  remove(w: Waiting): void {
    if (!w.linked) return;
    if (w.prev) w.prev.next = w.next;
    else this.head = w.next;
    if (w.next) w.next.prev = w.prev;
    else this.tail = w.prev;
    w.prev = w.next = null;
    w.req = w.res = null;
    w.linked = false;
    // The timer stays set: when it fires it finds the next deadline, and sets itself for that.
  }

  private setTimer(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(this.due, Math.max(1, at - Date.now()));
    // It keeps no process alive: a request waiting for its answer has a connection that does.
    this.timer.unref();
  }

  /** Answers every request whose deadline has come (by Date.now(), the clock its database work is bounded by) and is still unanswered. */
  private readonly due = (): void => {
    this.timer = null;
    this.timerAt = Infinity;
    try {
      const now = Date.now();
      for (let w = this.head; w && w.at <= now; w = this.head) {
        const { req, res } = w;
        this.remove(w);
        if (req && res && !res.headersSent && !res.writableEnded && !res.destroyed) answerAtDeadline(req, res, this.ms);
      }
    } finally {
      if (this.head) this.setTimer(this.head.at);
    }
  };
}

/**
 * Where a request's place in its queue is kept: on its response's `locals`, the object Express
 * makes for each request to carry what its handlers share. A WeakMap keyed by the request cost
 * more than the timer it replaces (an identity hash for every request, an ephemeron for the GC).
 */
const WAITING = Symbol('request deadline');
type WithLocals = { locals?: Record<symbol, unknown> };
const waitingOf = (req: object): Waiting | undefined => (req as { res?: WithLocals }).res?.locals?.[WAITING] as Waiting | undefined;

let listening = false;
/** Takes every finished answer out of its request's queue: one subscriber for the process, not a listener per request. */
function listenForFinishedAnswers(): void {
  if (listening) return;
  listening = true;
  subscribe('http.server.response.finish', (message) => {
    const w = (message as { response: WithLocals }).response.locals?.[WAITING] as Waiting | undefined;
    if (w) w.queue.remove(w);
  });
}

/** When the request must be answered (ms since the epoch); a request that never passed the middleware gets `fallbackMs` from now. */
export const deadlineOf = (req: object, fallbackMs = DEFAULT_REQUEST_DEADLINE_MS): number => waitingOf(req)?.at ?? Date.now() + fallbackMs;

/**
 * Runs database work a page does itself (a use case it calls without an operation: a new key,
 * a session, a sign-up) within its request's deadline, as every operation's runs: none of it
 * commits after the request was answered 503.
 */
export function withinRequest<T>(req: object, work: () => T): T {
  const w = waitingOf(req);
  return w?.queue.within ? w.queue.within(w.at, work) : work();
}

/**
 * The middleware that keeps the deadline: first on every request, after the log and the
 * security headers. `within` is the database's way of bounding work by it (withinRequest).
 */
export function requestDeadline(ms: number, within?: WithinDeadline): RequestHandler {
  listenForFinishedAnswers();
  const queue = new DeadlineQueue(ms, within);
  return (req, res, next) => {
    const w = new Waiting(Date.now() + ms, queue, req, res);
    (res.locals as Record<symbol, unknown>)[WAITING] = w;
    queue.add(w);
    next();
  };
}

/** The requests their deadline answered: an error they meet afterwards is dropped unsaid (answerIfLate). */
const answeredByDeadline = new WeakSet<object>();

/** True once the request's deadline has come (by Date.now()), whether or not it has been answered for it yet. */
export function pastDeadline(req: object): boolean {
  const w = waitingOf(req);
  return w !== undefined && Date.now() >= w.at;
}

/** The answer of a request its deadline reached first: 503, Retry-After, and a sentence (a page for pages, JSON-RPC on /mcp). */
function answerAtDeadline(req: Request, res: Response, ms: number): void {
  const sentence = deadlinePassed(Math.round(ms / 1000));
  answeredByDeadline.add(req);
  res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  if (req.path === '/mcp') res.status(503).json({ jsonrpc: '2.0', id: null, error: { code: -32603, message: sentence } });
  else if (wantsPage(req)) sendView(res, 503, { title: requestWords.pageTitleLate, body: errorLine(sentence) });
  else res.status(503).json({ error: sentence });
}

/**
 * For a request that met an error: true if its deadline answered it already, or has come and
 * answers it now (as the timer would a moment later, in the same words), so the error is no
 * one's news; false while there is time left, and the error is answered as itself.
 */
export function answerIfLate(req: Request, res: Response): boolean {
  if (answeredByDeadline.has(req)) return true;
  const w = waitingOf(req);
  // An answer on its way already (its headers sent) is no deadline's to replace: the error goes on.
  if (w === undefined || Date.now() < w.at || res.headersSent) return false;
  w.queue.remove(w);
  answerAtDeadline(req, res, w.queue.ms);
  return true;
}

/**
 * The error handler before the host's own: an error of a request whose deadline has come (the
 * database it waited on, an answer it could no longer send) is answered as the deadline, or
 * not at all once the deadline answered it.
 */
export const lateErrors: ErrorRequestHandler = (err: unknown, req, res, next) => {
  if (!answerIfLate(req, res)) next(err);
};
