import type { Request, Response } from 'express';
import { flatten, readRateLimits } from '@frontdesk/config';
import { SIGN_IN_MAX_CODES_PER_HOUR, TooManyRequestsError, normalizeEmail, tooManyCodesMessage } from '@frontdesk/domain';
import { noteRefusal } from './metrics';

/** A limit: at most `limit` hits per `windowSeconds`; a limit of 0 turns it off. */
export interface Limit {
  limit: number;
  windowSeconds: number;
}

/** Every limit of both hosts, as the host's config read them (docs/security.md, "Rate limits"; defaults in docs/configuration.md). */
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
  /** Counts `share` hits at once if all fit under `limit` in the live window; null if they do not. */
  lease(lease: { key: string; windowSeconds: number; share: number; limit: number }, now: Date): Promise<{ hits: number; resetsAt: Date } | null>;
  /** Gives back leased hits never used, each to the window it was leased in. */
  giveBack(returns: { key: string; count: number; resetsAt: Date }[]): Promise<void>;
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
  noteRefusal(res, err.policy);
  res.setHeader('Retry-After', String(err.retryAfterSeconds));
  setRateLimitHeaders(res, err, { remaining: 0, resetSeconds: err.retryAfterSeconds });
}

const wait = (seconds: number) => (seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`);

/**
 * Limits at least this large (the per-credential budgets) are leased in shares: a replica
 * takes SHARE of the limit from PostgreSQL in one statement, only while a whole share still
 * fits under the limit, and spends it in the process, so an ordinary call costs no round
 * trip. Past that, and for the small limits (sign-in, registration, guessing), every hit is
 * counted in PostgreSQL before the answer. Every call let through was counted there first,
 * so all replicas together never let through more than the limit. A share a replica holds
 * and does not use is given back after GIVE_BACK_MS without calls, so a caller who moves to
 * another replica loses at most one share per replica for that moment.
 */
const BATCHED_FROM = 50;
const SHARE = 0.05;
/** The next share is leased ahead, without a caller waiting, once a share is this far spent. */
const LEASE_AHEAD_AT = 0.5;
const GIVE_BACK_MS = 1000;
const MAX_TALLIES = 100_000;
/** The window of a tally whose first share is still being leased: not over before it starts. */
const NEVER = new Date(8.64e15);

interface Tally {
  windowSeconds: number;
  /** Hits leased here and not yet spent. */
  left: number;
  /** Hits PostgreSQL had counted at the last lease, every replica's included. */
  hits: number;
  resetsAt: Date;
  /** A lease under way: resolves true if it granted a share. */
  leasing: Promise<boolean> | null;
  /** When a call last spent a hit here (the process's own time). */
  usedAt: number;
}

/** Counts and refuses: one shared counter per (policy, subject). */
export class RateLimiter {
  private readonly tallies = new Map<string, Tally>();
  private giveBackTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: RateLimitStore,
    private readonly clock: () => Date,
  ) {}

  /**
   * Counts a hit; past the limit, throws a 429 saying when to try again. `res`, when given,
   * gets the RateLimit fields on success too, so a client can pace itself.
   */
  async take(policy: string, limit: Limit, subject: string, o: Wording & { res?: Pick<Response, 'setHeader'> } = {}): Promise<void> {
    if (limit.limit === 0 || this.spendAtHand(policy, limit, subject, o.res)) return;
    const key = `${policy}:${subject}`;
    if (limit.limit >= BATCHED_FROM && (await this.spendLeased(key, limit))) {
      const tally = this.tallies.get(key);
      if (o.res && tally) {
        const now = this.clock();
        setRateLimitHeaders(o.res, { policy, limit }, { remaining: limit.limit - tally.hits + tally.left, resetSeconds: secondsUntil(tally.resetsAt, now) });
      }
      return;
    }
    const now = this.clock();
    const { hits, resetsAt } = await this.store.hit(key, limit.windowSeconds, now, 1);
    const reset = secondsUntil(resetsAt, now);
    if (hits > limit.limit) throw refusal(policy, limit, reset, o);
    if (o.res) setRateLimitHeaders(o.res, { policy, limit }, { remaining: limit.limit - hits, resetSeconds: reset });
  }

  /**
   * take's common case, without waiting: spends a hit of a share leased here, in its window
   * and not used up, and sets the RateLimit fields on `res` as take does. False, spending
   * nothing, when there is no such share (take then leases one, or counts the hit alone).
   */
  spendAtHand(policy: string, limit: Limit, subject: string, res?: Pick<Response, 'setHeader'>): boolean {
    if (limit.limit < BATCHED_FROM) return false;
    const tally = this.tallies.get(`${policy}:${subject}`);
    if (!tally || tally.left <= 0) return false;
    const now = this.clock();
    if (tally.resetsAt <= now) return false;
    this.spend(`${policy}:${subject}`, limit, tally);
    if (res) setRateLimitHeaders(res, { policy, limit }, { remaining: limit.limit - tally.hits + tally.left, resetSeconds: secondsUntil(tally.resetsAt, now) });
    return true;
  }

  /** Spends one hit of the tally's share, leasing the next ahead once this one is far spent. */
  private spend(key: string, limit: Limit, tally: Tally): void {
    tally.left -= 1;
    tally.usedAt = Date.now();
    if (tally.left <= this.shareOf(limit) * LEASE_AHEAD_AT && !tally.leasing) void this.lease(key, limit, tally).catch(() => {});
    this.giveBackSoon();
  }

  /** Spends a hit of a share leased here, leasing one when none is left; false when no whole share fits (count the hit alone). */
  private async spendLeased(key: string, limit: Limit): Promise<boolean> {
    for (;;) {
      let tally = this.tallies.get(key);
      if (tally && tally.resetsAt <= this.clock()) {
        // A new window: what was left of the old one's share goes with it.
        this.tallies.delete(key);
        tally = undefined;
      }
      if (tally && tally.left > 0) {
        this.spend(key, limit, tally);
        return true;
      }
      if (!tally) {
        if (this.tallies.size >= MAX_TALLIES) this.tallies.clear();
        tally = { windowSeconds: limit.windowSeconds, left: 0, hits: 0, resetsAt: NEVER, leasing: null, usedAt: Date.now() };
        this.tallies.set(key, tally);
      }
      // Calls that find the share spent wait for one lease together; none granted, each counts alone.
      if (!(await (tally.leasing ?? this.lease(key, limit, tally)))) return false;
    }
  }

  private shareOf(limit: Limit): number {
    return Math.max(1, Math.floor(limit.limit * SHARE));
  }

  private lease(key: string, limit: Limit, tally: Tally): Promise<boolean> {
    const share = this.shareOf(limit);
    tally.leasing = this.store
      .lease({ key, windowSeconds: limit.windowSeconds, share, limit: limit.limit }, this.clock())
      .then((leased) => {
        if (!leased) return false;
        // A share of a new window replaces what was left of the old one.
        if (tally.resetsAt !== NEVER && leased.resetsAt.getTime() !== tally.resetsAt.getTime()) tally.left = 0;
        Object.assign(tally, { left: tally.left + share, hits: leased.hits, resetsAt: leased.resetsAt });
        return true;
      })
      .finally(() => {
        tally.leasing = null;
      });
    return tally.leasing;
  }

  /** Throws the 429 if the subject is already past the limit, without counting a hit. */
  async check(policy: string, limit: Limit, subject: string, o: Wording = {}): Promise<void> {
    if (limit.limit === 0) return;
    const now = this.clock();
    const { hits, resetsAt } = await this.store.hits(`${policy}:${subject}`, now);
    if (resetsAt && hits >= limit.limit) throw refusal(policy, limit, secondsUntil(resetsAt, now), o);
  }

  /** Gives back, GIVE_BACK_MS after the last call, every share left unspent by subjects that stopped calling here. */
  private giveBackSoon(): void {
    if (this.giveBackTimer) return;
    this.giveBackTimer = setTimeout(() => void this.giveBack(), GIVE_BACK_MS);
    this.giveBackTimer.unref();
  }

  private async giveBack(): Promise<void> {
    const idle = Date.now() - GIVE_BACK_MS;
    const now = this.clock();
    const returns = [...this.tallies].filter(([, t]) => t.left > 0 && !t.leasing && t.usedAt <= idle && t.resetsAt > now);
    for (const [key] of returns) this.tallies.delete(key);
    try {
      if (returns.length > 0) await this.store.giveBack(returns.map(([key, t]) => ({ key, count: t.left, resetsAt: t.resetsAt })));
    } catch {
      // The database is away: the unspent hits stay counted until their window ends (fewer calls let through, never more).
    } finally {
      this.giveBackTimer = null;
      if ([...this.tallies.values()].some((t) => t.left > 0)) this.giveBackSoon();
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
