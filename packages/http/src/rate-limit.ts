import type { Request, Response } from 'express';
import { flatten, readRateLimits } from '@frontdesk/config';
import { SIGN_IN_MAX_CODES_PER_HOUR, TooManyRequestsError, normalizeEmail, tooManyCodesMessage } from '@frontdesk/domain';

/** A limit: at most `limit` hits per `windowSeconds`; a limit of 0 turns it off. */
export interface Limit {
  limit: number;
  windowSeconds: number;
}

/** Every limit of both hosts, as the host's config read them (README, "Security"). */
export interface RateLimits {
  /** Sign-in codes asked for from one client IP. */
  signInPerIp: Limit;
  /** Sign-in codes sent to one address. */
  signInPerAddress: Limit;
  /** OAuth client registrations from one client IP. */
  registerPerIp: Limit;
  /** OAuth authorizations started (and kept pending) from one client IP. */
  authorizePerIp: Limit;
  /** Keys and tokens that matched nothing, from one client IP. */
  authFailuresPerIp: Limit;
  /** Reads by one credential (for the shared public key: by one client IP). */
  readsPerCredential: Limit;
  /** Writes by one credential (for the shared public key: by one client IP). */
  writesPerCredential: Limit;
}

/** What the limits default to that the settings package cannot know: the domain's own figure. */
export const RATE_LIMIT_DEFAULTS = { signInPerAddress: SIGN_IN_MAX_CODES_PER_HOUR };

/** Every limit at its default, for a host whose config leaves the limits out (tests, tools). */
export const defaultRateLimits = (): RateLimits => readRateLimits(flatten({}), RATE_LIMIT_DEFAULTS);

/** Every limit multiplied by `factor` (tests and benchmarks count as production does, far from the limits). */
export const scaleRateLimits = (limits: RateLimits, factor: number): RateLimits =>
  Object.fromEntries(Object.entries(limits).map(([name, l]: [string, Limit]) => [name, { ...l, limit: l.limit * factor }])) as unknown as RateLimits;

/** Where counters live: PostgreSQL, so every replica of both hosts shares them. */
export interface RateLimitStore {
  hit(key: string, windowSeconds: number, now: Date, count?: number): Promise<{ hits: number; resetsAt: Date }>;
  /** Several keys' batched hits in one round trip, answered in the order given. */
  hitMany(hits: { key: string; windowSeconds: number; count: number }[], now: Date): Promise<{ hits: number; resetsAt: Date }[]>;
  hits(key: string, now: Date): Promise<{ hits: number; resetsAt: Date | null }>;
}

/** 429 with Retry-After and the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers). */
export class RateLimitedError extends TooManyRequestsError {
  constructor(
    message: string,
    readonly policy: string,
    readonly limit: Limit,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

const secondsUntil = (at: Date, now: Date) => Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));

/** Writes the RateLimit-Policy and RateLimit fields for one policy. */
export function setRateLimitHeaders(
  res: Pick<Response, 'setHeader'> & { headersSent?: boolean },
  p: { policy: string; limit: Limit },
  left: { remaining: number; resetSeconds: number },
): void {
  // A request its deadline answered while it waited for its count has nothing more to say.
  if (res.headersSent) return;
  res.setHeader('RateLimit-Policy', `"${p.policy}";q=${p.limit.limit};w=${p.limit.windowSeconds}`);
  res.setHeader('RateLimit', `"${p.policy}";r=${Math.max(0, left.remaining)};t=${left.resetSeconds}`);
}

/** Sets Retry-After and the RateLimit fields of a refused request. */
export function setRateLimitedHeaders(res: Pick<Response, 'setHeader'>, err: RateLimitedError): void {
  res.setHeader('Retry-After', String(err.retryAfterSeconds));
  setRateLimitHeaders(res, err, { remaining: 0, resetSeconds: err.retryAfterSeconds });
}

const wait = (seconds: number) => (seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`);

/**
 * Limits at least this large (the per-credential budgets) are counted in batches: far from
 * the limit a hit is counted in the process and reaches PostgreSQL with the others within
 * BATCH_MS, so an ordinary call costs no round trip; from HEADROOM of the limit on, and for
 * the small limits (sign-in, registration, guessing), every hit is counted in PostgreSQL
 * before the answer. Replicas can together let through at most what they counted in one
 * batch beyond the headroom.
 */
const BATCHED_FROM = 50;
const HEADROOM = 0.9;
const BATCH_MS = 200;
/** A tally older than this (no batch sent for it lately) is counted in PostgreSQL again before it is trusted. */
const TALLY_FRESH_MS = 1000;
const MAX_TALLIES = 100_000;

interface Tally {
  windowSeconds: number;
  /** Hits PostgreSQL had counted at the last round trip, every replica's included. */
  hits: number;
  /** Hits counted here and not yet sent. */
  pending: number;
  resetsAt: Date;
  /** When PostgreSQL last answered for it (the process's own time, not the app clock). */
  syncedAt: number;
}

/** Counts and refuses: one shared counter per (policy, subject). */
export class RateLimiter {
  private readonly tallies = new Map<string, Tally>();
  private batch: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: RateLimitStore,
    private readonly clock: () => Date,
  ) {}

  /**
   * Counts a hit; past the limit, throws a 429 saying when to try again. `res`, when given,
   * gets the RateLimit fields on success too, so a client can pace itself.
   */
  async take(policy: string, limit: Limit, subject: string, o: Wording & { res?: Pick<Response, 'setHeader'> } = {}): Promise<void> {
    if (limit.limit === 0) return;
    const now = this.clock();
    const key = `${policy}:${subject}`;
    const batched = limit.limit >= BATCHED_FROM;
    let tally = batched ? this.tallies.get(key) : undefined;
    if (tally && tally.resetsAt <= now) {
      this.tallies.delete(key);
      tally = undefined;
    }
    if (tally && Date.now() - tally.syncedAt < TALLY_FRESH_MS && tally.hits + tally.pending + 1 <= limit.limit * HEADROOM) {
      tally.pending += 1;
      this.sendSoon();
      if (o.res)
        setRateLimitHeaders(o.res, { policy, limit }, { remaining: limit.limit - tally.hits - tally.pending, resetSeconds: secondsUntil(tally.resetsAt, now) });
      return;
    }
    const sending = tally?.pending ?? 0;
    if (tally) tally.pending -= sending;
    const { hits, resetsAt } = await this.store.hit(key, limit.windowSeconds, now, sending + 1);
    const reset = secondsUntil(resetsAt, now);
    if (batched) {
      tally = this.tallies.get(key) ?? { windowSeconds: limit.windowSeconds, hits, pending: 0, resetsAt, syncedAt: 0 };
      Object.assign(tally, { hits, resetsAt, syncedAt: Date.now() });
      if (this.tallies.size >= MAX_TALLIES) this.tallies.clear();
      this.tallies.set(key, tally);
    }
    const counted = hits + (tally?.pending ?? 0);
    if (counted > limit.limit) throw refusal(policy, limit, reset, o);
    if (o.res) setRateLimitHeaders(o.res, { policy, limit }, { remaining: limit.limit - counted, resetSeconds: reset });
  }

  /** Throws the 429 if the subject is already past the limit, without counting a hit. */
  async check(policy: string, limit: Limit, subject: string, o: Wording = {}): Promise<void> {
    if (limit.limit === 0) return;
    const now = this.clock();
    const { hits, resetsAt } = await this.store.hits(`${policy}:${subject}`, now);
    if (resetsAt && hits >= limit.limit) throw refusal(policy, limit, secondsUntil(resetsAt, now), o);
  }

  /** Sends every tally's pending hits in one statement, BATCH_MS after the first one waiting. */
  private sendSoon(): void {
    if (this.batch) return;
    this.batch = setTimeout(() => void this.send(), BATCH_MS);
    this.batch.unref();
  }

  private async send(): Promise<void> {
    const now = this.clock();
    const due = [...this.tallies].filter(([, t]) => t.pending > 0 && t.resetsAt > now);
    const sent = due.map(([key, t]) => ({ key, windowSeconds: t.windowSeconds, count: t.pending }));
    for (const [, t] of due) t.pending = 0;
    try {
      const counted = sent.length > 0 ? await this.store.hitMany(sent, now) : [];
      due.forEach(([, t], i) => Object.assign(t, { hits: counted[i]!.hits, resetsAt: counted[i]!.resetsAt, syncedAt: Date.now() }));
    } catch {
      // The database is away: the hits wait for the next batch.
      due.forEach(([, t], i) => (t.pending += sent[i]!.count));
    } finally {
      this.batch = null;
      if ([...this.tallies.values()].some((t) => t.pending > 0)) this.sendSoon();
    }
  }
}

/** How a refusal reads: "Too many <what> from here…", or a sentence of its own. */
interface Wording {
  what?: string;
  message?: string;
}

const refusal = (policy: string, limit: Limit, reset: number, o: Wording) =>
  new RateLimitedError(o.message ?? `Too many ${o.what ?? 'requests'} from here; try again in ${wait(reset)}.`, policy, limit, reset);

/** The client's address: the socket's, or the proxy's header when TRUST_PROXY says to believe it. */
export const clientIp = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** A host's limiter and the limits it applies. */
export interface HostLimits {
  limiter: RateLimiter;
  limits: RateLimits;
}

export function hostLimits(store: RateLimitStore, clock: () => Date, limits: RateLimits | undefined): HostLimits {
  return { limiter: new RateLimiter(store, clock), limits: limits ?? defaultRateLimits() };
}

const FAILURES = 'keys or tokens that match nothing';

/**
 * Looks a credential up unless this address has already sent too many that matched nothing;
 * one that matches nothing counts against the address. A guesser is stopped before the
 * lookup, so even a right guess past the limit gets the 429.
 */
export async function lookUpCredential<T>(h: HostLimits, req: Request, lookup: () => Promise<T | undefined>): Promise<T | undefined> {
  const ip = clientIp(req);
  await h.limiter.check('auth-failures', h.limits.authFailuresPerIp, ip, { what: FAILURES });
  const found = await lookup();
  if (found === undefined) await h.limiter.take('auth-failures', h.limits.authFailuresPerIp, ip, { what: FAILURES });
  return found;
}

/** Counts a sign-in code asked for, against the client's address and against the email address it goes to. */
export async function takeSignInCode(h: HostLimits, req: Request, rawEmail: string): Promise<void> {
  await h.limiter.take('sign-in', h.limits.signInPerIp, clientIp(req), { what: 'sign-in codes' });
  const email = normalizeEmail(rawEmail);
  await h.limiter.take('sign-in-address', h.limits.signInPerAddress, email, { message: tooManyCodesMessage(email) });
}
