import type { Request } from 'express';
import type { Logger } from 'pino';
import { InvalidInputError } from '@frontdesk/domain';
import { runOnce, type IdempotencyOptions, type KeptAnswer } from './idempotency';
import { validateInput } from './input';
import { requestIdOf } from './logger';
import { checkAnswer } from './output';
import type { HostLimits } from './rate-limit';
import type { CallContext, Operation } from './operation';

const CLIENT_NAME_MAX = 100;

/** The assistant's name from X-Client-Name, checked like a field. */
export function clientNameOf(req: Request): string | null {
  const name = req.get('x-client-name')?.trim();
  if (name && name.length > CLIENT_NAME_MAX) {
    throw new InvalidInputError(`X-Client-Name must be at most ${CLIENT_NAME_MAX} characters long.`);
  }
  return name ? name : null;
}

export interface RunOptions<P> {
  clock(): Date;
  logger: Logger;
  /** Where idempotency keys are kept; without it, keys are refused as unsupported. */
  idempotency?: IdempotencyOptions<P>;
  /** Check every answer against the operation's output schema (createServiceApp decides once, from FRONT_DESK_CHECK_ANSWERS). */
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
}

export interface CredentialRateLimit<P> {
  /** The host's limiter, and its reads and writes per credential. */
  host: HostLimits;
  /** Whose budget a call spends: the credential, or for a key everyone shares, the client IP. */
  subjectOf(principal: P, req: Request): string;
}

const keepAll: KeptAnswer = { keep: (result) => result, replay: (kept) => Promise.resolve(kept) };

/**
 * The one way an operation runs, whichever transport (REST or MCP) brought the call: the
 * input is judged by the operation's schema here, so no transport can be laxer than another,
 * and a write with an idempotency key runs at most once.
 */
export async function runOperation<P>(
  op: Operation<P>,
  input: unknown,
  req: Request,
  principal: P,
  opts: RunOptions<P>,
  idempotencyKey?: string,
): Promise<{ result: object; replayed: boolean }> {
  if (opts.rateLimit) {
    const { limiter, limits } = opts.rateLimit.host;
    const write = !op.readOnly;
    await limiter.take(write ? 'writes' : 'reads', write ? limits.writesPerCredential : limits.readsPerCredential, opts.rateLimit.subjectOf(principal, req), {
      res: req.res,
      what: write ? 'writes' : 'reads',
    });
  }
  const valid = validateInput(op, input);
  const call: CallContext<P> = {
    principal,
    clientName: opts.clientName ?? clientNameOf(req),
    requestId: requestIdOf(req),
    now: opts.clock(),
    log: (req as { log?: Logger }).log ?? opts.logger,
  };
  const answered = await answer();
  if (!op.readOnly) await opts.changes?.fence();
  if (opts.checkAnswers) checkAnswer(op, answered.result);
  return answered;

  async function answer(): Promise<{ result: object; replayed: boolean }> {
    if (idempotencyKey === undefined || op.readOnly) return { result: await op.handler(valid, call), replayed: false };
    if (!opts.idempotency) throw new InvalidInputError('This service does not keep idempotency keys; send the request without one.');
    return runOnce(opts.idempotency, { principal, key: idempotencyKey, operation: op.name, input: valid, now: () => opts.clock() }, op.retry ?? keepAll, () =>
      op.handler(valid, call),
    );
  }
}
