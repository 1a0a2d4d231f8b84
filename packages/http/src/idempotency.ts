import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEEP_HOURS, STILL_RUNNING, idempotencyKeyMalformed, idempotencyKeyReused } from '@frontdesk/domain';
import { AppError } from '@frontdesk/domain';

/**
 * Safe retries. A write sent with an idempotency key (the Idempotency-Key header over REST,
 * the `idempotency_key` argument over MCP) runs once per credential and key: the same key
 * with the same input within IDEMPOTENCY_KEEP_HOURS gets the first answer again, never a second booking;
 * the same key with other input is refused. The store is PostgreSQL, so every replica agrees.
 */
export const IDEMPOTENCY_KEEP_MS = IDEMPOTENCY_KEEP_HOURS * 60 * 60 * 1000;
/** How long a request holds its key before a retry may run it anew (a replica that died mid-call). */
export const IDEMPOTENCY_LEASE_MS = 60_000;
/** How long a duplicate waits for the first request's answer. */
const WAIT_FOR_FIRST_MS = 10_000;

const KEY = /^[\x21-\x7e]{1,255}$/;

type Claim = { state: 'new' } | { state: 'done'; response: object } | { state: 'running' } | { state: 'mismatch'; operation: string };

export interface IdempotencyStore {
  claim(r: { credential: string; key: string; operation: string; requestHash: Buffer; now: Date; leaseMs: number; keepMs: number }): Promise<Claim>;
  keep(credential: string, key: string, response: object): Promise<void>;
  release(credential: string, key: string): Promise<void>;
}

export interface IdempotencyOptions<P> {
  store: IdempotencyStore;
  /**
   * Whose keys these are (one pro, one account, for the shared key one client address) and
   * what else decides the request (the X-User-* details). `from.address` is the client's
   * address as the rate limits read it (TRUST_PROXY decides whose).
   */
  scopeOf(principal: P, from: { address: string }): { credential: string; context?: unknown };
}

/** 503: the first request with this key is still running; the retry should come back shortly. */
export class StillRunningError extends AppError {
  readonly status = 503;
}

/** An idempotency key as sent: printable ASCII, 1 to 255 characters; a quoted sf-string is unquoted. */
export function readIdempotencyKey(raw: unknown, name: string): string | undefined {
  if (raw === undefined) return undefined;
  const key = typeof raw === 'string' ? raw.trim().replace(/^"(.*)"$/, '$1') : '';
  if (!KEY.test(key)) throw idempotencyKeyMalformed(name);
  return key;
}

/** JSON with object keys sorted, so the same input always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface KeptAnswer {
  /** What is stored: the answer without its secrets. */
  keep(result: object): object;
  /** The stored answer given again; may mint a fresh secret that retires the lost one. */
  replay(kept: object): Promise<object>;
}

/**
 * Runs `work` at most once for (credential, key): the first request does it and keeps the
 * answer; a duplicate waits for that answer; a retry gets it. A request that fails frees
 * the key, since nothing was done.
 */
export async function runOnce<P>(
  opts: IdempotencyOptions<P>,
  call: { principal: P; address: string; key: string; operation: string; input: unknown; now: () => Date },
  answer: KeptAnswer,
  work: () => Promise<object>,
): Promise<{ result: object; replayed: boolean }> {
  const { credential, context } = opts.scopeOf(call.principal, { address: call.address });
  const requestHash = createHash('sha256')
    .update(canonical({ operation: call.operation, input: call.input, context }))
    .digest();
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const claim = await opts.store.claim({
      credential,
      key: call.key,
      operation: call.operation,
      requestHash,
      now: call.now(),
      leaseMs: IDEMPOTENCY_LEASE_MS,
      keepMs: IDEMPOTENCY_KEEP_MS,
    });
    if (claim.state === 'mismatch') {
      throw idempotencyKeyReused(claim.operation);
    }
    if (claim.state === 'done') return { result: await answer.replay(claim.response), replayed: true };
    if (claim.state === 'new') break;
    if (Date.now() > deadline) {
      throw new StillRunningError(STILL_RUNNING);
    }
    await sleep(50);
  }
  let result: object;
  try {
    result = await work();
  } catch (err) {
    await opts.store.release(credential, call.key).catch(() => {});
    throw err;
  }
  await opts.store.keep(credential, call.key, answer.keep(result));
  return { result, replayed: false };
}
