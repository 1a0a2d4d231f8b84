import { createHash, randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEEP_HOURS, STILL_RUNNING, idempotencyKeyMalformed, idempotencyKeyReused } from '@frontdesk/domain';
import { AppError, type IdempotencyHold, type IdempotencyStore } from '@frontdesk/domain';
import { DEFAULT_REQUEST_DEADLINE_MS } from '@frontdesk/config';

/**
 * Safe retries. A write sent with an idempotency key (the Idempotency-Key header over REST,
 * the `idempotency_key` argument over MCP) runs once per credential and key: the same key
 * with the same input within IDEMPOTENCY_KEEP_HOURS gets the first answer again, never a second booking;
 * the same key with other input is refused. The store is PostgreSQL, so every replica agrees.
 */
export const IDEMPOTENCY_KEEP_MS = IDEMPOTENCY_KEEP_HOURS * 60 * 60 * 1000;
/**
 * How long a request holds its key beyond its own deadline before a retry elsewhere may run
 * it anew (a replica that died mid-call). A request's database work ends at its deadline
 * (it runs under `withinDeadline`), so by then nothing of it can still commit.
 */
export const IDEMPOTENCY_LEASE_MARGIN_MS = 2000;
/** A duplicate waits for the first request's answer until this long before its own deadline, then answers 503 "still running". */
const WAIT_MARGIN_MS = 1000;
/** How often released keys and kept answers that could not reach the database are tried again. */
const AFTERCARE_RETRY_MS = 500;

const KEY = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyOptions<P> {
  store: IdempotencyStore;
  /**
   * Whose keys these are (one pro, one account, for the shared key one client address) and
   * what else decides the request (the X-User-* details). `from.address` is the client's
   * address as the rate limits read it (TRUST_PROXY decides whose).
   */
  scopeOf(principal: P, from: { address: string }): { credential: string; context?: unknown };
}

/** Runs work with its database queries bounded by a deadline, or by none (null); see withDeadline in the db package. */
export type WithinDeadline = <T>(deadline: number | null, work: () => T) => T;
const unbounded: WithinDeadline = (_deadline, work) => work();

/**
 * What a process still owes the store after its requests ended: releases of keys whose work
 * failed and answers to keep, which could not reach the database (it was away). They are
 * tried at once and again every AFTERCARE_RETRY_MS, off every request's path and deadline, so
 * a key is free (or answered) within a moment of the database's return. Until then this
 * process knows those holders are dead, and a retry that reaches it takes their key over.
 */
class Aftercare {
  private readonly releases = new Map<string, IdempotencyHold>();
  private readonly keeps = new Map<string, { hold: IdempotencyHold; response: object }>();
  private timer: NodeJS.Timeout | null = null;
  private inFlight = 0;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly within: WithinDeadline,
  ) {}

  /** True when this process's own request that held the key under `holder` has ended without a kept answer. */
  isDead(holder: string): boolean {
    return this.releases.has(holder);
  }

  /** Forgets a dead holder whose key was taken over (its release would touch nothing now). */
  forget(holder: string): void {
    this.releases.delete(holder);
  }

  release(hold: IdempotencyHold): void {
    this.releases.set(hold.holder, hold);
    this.flush();
  }

  keep(hold: IdempotencyHold, response: object): void {
    this.keeps.set(hold.holder, { hold, response });
    this.flush();
  }

  /** Sends everything owed in one go; what fails stays owed and is tried again shortly. Two attempts at most are in flight. */
  private flush(): void {
    if (this.releases.size === 0 && this.keeps.size === 0) return;
    if (this.inFlight >= 2) return this.later();
    const releases = [...this.releases.values()];
    const keeps = [...this.keeps.values()];
    this.inFlight += 1;
    void this.within(null, () =>
      Promise.all([this.store.release(releases), ...keeps.map((k) => this.store.keep(k.hold, k.response))]).then(
        () => {
          for (const r of releases) if (this.releases.get(r.holder) === r) this.releases.delete(r.holder);
          for (const k of keeps) if (this.keeps.get(k.hold.holder) === k) this.keeps.delete(k.hold.holder);
        },
        () => this.later(),
      ),
    ).finally(() => {
      this.inFlight -= 1;
    });
  }

  private later(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, AFTERCARE_RETRY_MS);
    this.timer.unref();
  }
}

const aftercares = new WeakMap<IdempotencyStore, Aftercare>();
function aftercareOf(store: IdempotencyStore, within: WithinDeadline): Aftercare {
  let care = aftercares.get(store);
  if (!care) aftercares.set(store, (care = new Aftercare(store, within)));
  return care;
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

/** A write with an idempotency key, as runOnce takes it. */
export interface OnceCall<P> {
  principal: P;
  address: string;
  key: string;
  operation: string;
  input: unknown;
  now: () => Date;
  /** The request's deadline (ms since the epoch); 8 s from now when not given. */
  deadline?: number;
  /** How long the request may take (the lease is this plus IDEMPOTENCY_LEASE_MARGIN_MS). */
  deadlineMs?: number;
  withinDeadline?: WithinDeadline;
}

/**
 * Claims the key for this request: 'new' once it holds it, 'done' with the first answer, or
 * a refusal (another request with the key, or still running past the wait). A key held by a
 * request of this process that ended without an answer is taken over at once.
 */
async function claimKey<P>(opts: IdempotencyOptions<P>, call: OnceCall<P>, hold: IdempotencyHold, care: Aftercare): Promise<{ done?: object }> {
  const { context } = opts.scopeOf(call.principal, { address: call.address });
  const requestHash = createHash('sha256')
    .update(canonical({ operation: call.operation, input: call.input, context }))
    .digest();
  const deadlineMs = call.deadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS;
  const waitUntil = (call.deadline ?? Date.now() + deadlineMs) - WAIT_MARGIN_MS;
  const leaseMs = deadlineMs + IDEMPOTENCY_LEASE_MARGIN_MS;
  let replacing: string | undefined;
  for (;;) {
    const { credential, key, holder } = hold;
    const claim = await opts.store.claim({
      credential,
      key,
      operation: call.operation,
      requestHash,
      now: call.now(),
      leaseMs,
      keepMs: IDEMPOTENCY_KEEP_MS,
      holder,
      replacing,
    });
    if (claim.state === 'mismatch') throw idempotencyKeyReused(claim.operation);
    if (claim.state === 'done') return { done: claim.response };
    if (claim.state === 'new') {
      if (replacing) care.forget(replacing);
      return {};
    }
    // This process's own request held the key and ended without an answer: nothing runs, take it over now.
    if (care.isDead(claim.holder)) {
      replacing = claim.holder;
      continue;
    }
    if (Date.now() > waitUntil) throw new StillRunningError(STILL_RUNNING);
    await sleep(50);
  }
}

/**
 * Runs `work` at most once for (credential, key): the first request does it and keeps the
 * answer; a duplicate waits for that answer (until shortly before its own deadline); a retry
 * gets it. A request that fails frees the key, since nothing was done: off the answer's
 * path, and again after an outage until the database takes it (Aftercare).
 */
export async function runOnce<P>(
  opts: IdempotencyOptions<P>,
  call: OnceCall<P>,
  answer: KeptAnswer,
  work: () => Promise<object>,
): Promise<{ result: object; replayed: boolean }> {
  const { credential } = opts.scopeOf(call.principal, { address: call.address });
  const care = aftercareOf(opts.store, call.withinDeadline ?? unbounded);
  const hold: IdempotencyHold = { credential, key: call.key, holder: randomUUID() };
  const { done } = await claimKey(opts, call, hold, care);
  if (done) return { result: await answer.replay(done), replayed: true };
  let result: object;
  try {
    result = await work();
  } catch (err) {
    care.release(hold);
    throw err;
  }
  const kept = answer.keep(result);
  // The work is done: if its answer cannot be kept now (the database went away), it is kept
  // when the database returns, and the caller gets the answer meanwhile.
  await opts.store.keep(hold, kept).catch(() => care.keep(hold, kept));
  return { result, replayed: false };
}
