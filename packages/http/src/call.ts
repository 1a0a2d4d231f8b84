import type { Request } from 'express';
import { clientNameTooLong, headerNotOneLine, idempotencyNotKept, isSingleLine } from '@frontdesk/domain';
import { headerText } from './auth';
import type { Logger } from 'pino';
import { runOnce, type IdempotencyOptions, type KeptAnswer, type WithinDeadline } from './idempotency';
import { deadlineOf } from './deadline';
import { validateInput } from './input';
import { requestIdOf } from './logger';
import { checkAnswer } from './output';
import { noteOperation } from './metrics';
import { operationSpan } from './tracing';
import { clientIp, type HostLimits } from './rate-limit';
import type { AnswerOf, AnyOperation, CallContext, InputOf, Operation } from './operation';

const CLIENT_NAME_MAX = 100;

/** The assistant's name from X-Client-Name, checked like a field (one line, at most CLIENT_NAME_MAX characters). */
export function clientNameOf(req: Request): string | null {
  const name = headerText(req, 'x-client-name')?.trim();
  if (name && !isSingleLine(name)) throw headerNotOneLine('X-Client-Name');
  if (name && name.length > CLIENT_NAME_MAX) {
    throw clientNameTooLong(CLIENT_NAME_MAX);
  }
  return name ? name : null;
}

export interface RunOptions<P> {
  clock(): Date;
  logger: Logger;
  /** Where idempotency keys are kept; without it, keys are refused as unsupported. */
  idempotency?: IdempotencyOptions<P>;
  /** Check every answer against the operation's output schema (on while tests run; the service's caller decides). */
  checkAnswers?: boolean;
  /** Reads and writes counted per credential, shared by every replica. */
  rateLimit?: CredentialRateLimit<P>;
  /**
   * The process's change feed: after a write, the answer waits until the feed has heard it,
   * so the caller's next read here sees its own write.
   */
  changes?: { fence(): Promise<void> };
  /** Who made the call when it is not an assistant's header: a page names itself ("the booking page"). */
  clientName?: string;
  /** REQUEST_DEADLINE_MS: how long a request may take (the app answers 503 at its deadline). */
  requestDeadlineMs?: number;
  /** Bounds the database work of a call by the request's deadline (the db package's withDeadline). */
  withinDeadline?: WithinDeadline;
  /** Runs the handler of a read declared `reads: 'replica'` (the db package's readsFromReplica). */
  readsFromReplica?: <T>(work: () => Promise<T>) => Promise<T>;
}

export interface CredentialRateLimit<P> {
  /** The host's limiter, and its reads and writes per credential. */
  host: HostLimits;
  /** Whose budget a call spends: the credential, or for a key everyone shares, the client IP. */
  subjectOf(principal: P, req: Request): string;
}

const keepAll: KeptAnswer = { keep: (result) => result, replay: (kept) => Promise.resolve(kept) };

/**
 * Counts the call against its credential's reads or writes; past the budget, a 429. Nothing to
 * wait for (undefined) when a share leased here pays for it, as for most calls: a promise made
 * for every call costs more than the count itself.
 */
export function takeBudget<P>(op: Operation<P>, req: Request, principal: P, opts: RunOptions<P>): Promise<void> | undefined {
  // The first step every transport takes with an operation: from here its metrics carry its name.
  noteOperation(req.res, op.name);
  if (!opts.rateLimit) return undefined;
  const { limiter, limits } = opts.rateLimit.host;
  const what = op.readOnly ? 'reads' : 'writes';
  const limit = op.readOnly ? limits.readsPerCredential : limits.writesPerCredential;
  const subject = opts.rateLimit.subjectOf(principal, req);
  if (limiter.spendAtHand(what, limit, subject, req.res)) return undefined;
  return limiter.take(what, limit, subject, { res: req.res, what });
}

/** A call: the operation, its input (judged already, for runJudged), the request, who calls, and a write's idempotency key. */
export interface JudgedCall<P, O extends AnyOperation<P> = AnyOperation<P>> {
  op: O;
  input: unknown;
  req: Request;
  principal: P;
  /** The caller's idempotency key on a write; a read never has one. */
  idempotencyKey?: string;
}

/**
 * The one way an operation runs, whichever transport (REST or MCP) or page brought the call:
 * its budget is taken, its input judged by the operation's schema (no coercion, the same
 * words on every transport), and a write with an idempotency key runs at most once. REST
 * requests arrive judged by express-openapi-validator and go straight to runJudged.
 */
export async function runOperation<P, O extends AnyOperation<P>>(
  c: JudgedCall<P, O>,
  opts: RunOptions<P>,
): Promise<{ result: AnswerOf<O>; replayed: boolean }> {
  await takeBudget(c.op, c.req, c.principal, opts);
  // The caller's name is read before its input, as over REST, so both refuse in the same order.
  if (opts.clientName === undefined) clientNameOf(c.req);
  return runJudged({ ...c, input: validateInput(c.op, c.input) }, opts);
}

/** Runs a judged call: the handler (at most once for a key), the write fence, and the answer's check. */
export async function runJudged<P, O extends AnyOperation<P>>(c: JudgedCall<P, O>, opts: RunOptions<P>): Promise<{ result: AnswerOf<O>; replayed: boolean }> {
  const { op, principal } = c;
  // Any operation of the host, its input judged already: the answer's type is the operation's (AnswerOf<O>).
  const run: Operation<P> = op;
  const input = c.input as InputOf<Operation<P>>;
  const call: CallContext<P> = {
    principal,
    clientName: opts.clientName ?? clientNameOf(c.req),
    requestId: requestIdOf(c.req),
    now: opts.clock(),
    log: (c.req as { log?: Logger }).log ?? opts.logger,
  };
  // The work ends with the request: no query of it runs past the deadline, so none commits after the answer said 503.
  const deadline = deadlineOf(c.req, opts.requestDeadlineMs);
  // With tracing on, the call is one span, `op <name>`, whose children are its SQL statements.
  const answered = await operationSpan(op.name, op.readOnly, async () => {
    const done = opts.withinDeadline ? await opts.withinDeadline(deadline, answer) : await answer();
    if (!op.readOnly) await opts.changes?.fence();
    return done;
  });
  if (opts.checkAnswers) checkAnswer(op, answered.result);
  noteOperation(c.req.res, op.name, answered.replayed);
  // The handler's answer is typed by the operation's output schema (and checked against it while tests run).
  return answered as { result: AnswerOf<O>; replayed: boolean };

  async function answer(): Promise<{ result: object; replayed: boolean }> {
    // Reads are safe to repeat: a key sent with one is ignored (docs/api.md, "Safe retries").
    if (op.readOnly && op.reads === 'replica' && opts.readsFromReplica)
      return { result: await opts.readsFromReplica(() => run.handler(input, call)), replayed: false };
    if (c.idempotencyKey === undefined || op.readOnly) return { result: await run.handler(input, call), replayed: false };
    if (!opts.idempotency) throw idempotencyNotKept();
    const once = {
      principal,
      address: clientIp(c.req),
      key: c.idempotencyKey,
      operation: op.name,
      input: c.input,
      now: () => opts.clock(),
      deadline,
      deadlineMs: opts.requestDeadlineMs,
      withinDeadline: opts.withinDeadline,
    };
    return runOnce(opts.idempotency, once, op.retry ?? keepAll, () => run.handler(input, call));
  }
}
