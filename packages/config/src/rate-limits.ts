import { ConfigError, type FlatEnv } from './env';
import { readWholeNumber } from './values';

const HOUR = 3600;
const MINUTE = 60;

/**
 * Each limit, its variable, its window and its default: generous for honest use. The codes
 * sent to one address default to the domain's own figure, which the host passes in (this
 * package imports nothing of ours).
 */
export const RATE_LIMIT_VARIABLES = {
  signInPerIp: { variable: 'RATE_LIMIT_SIGN_IN_PER_IP', windowSeconds: HOUR, fallback: 30, what: 'sign-in codes asked for per client IP per hour' },
  signInPerAddress: {
    variable: 'RATE_LIMIT_SIGN_IN_PER_ADDRESS',
    windowSeconds: HOUR,
    fallback: undefined,
    what: 'sign-in codes sent to one address per hour',
  },
  registerPerIp: { variable: 'RATE_LIMIT_REGISTER_PER_IP', windowSeconds: HOUR, fallback: 20, what: 'OAuth client registrations per client IP per hour' },
  authorizePerIp: { variable: 'RATE_LIMIT_AUTHORIZE_PER_IP', windowSeconds: HOUR, fallback: 60, what: 'OAuth authorizations started per client IP per hour' },
  authFailuresPerIp: {
    variable: 'RATE_LIMIT_AUTH_FAILURES_PER_IP',
    windowSeconds: 15 * MINUTE,
    fallback: 30,
    what: 'keys or tokens that match nothing, per client IP per 15 minutes',
  },
  readsPerCredential: { variable: 'RATE_LIMIT_READS_PER_MINUTE', windowSeconds: MINUTE, fallback: 600, what: 'reads per credential per minute' },
  writesPerCredential: { variable: 'RATE_LIMIT_WRITES_PER_MINUTE', windowSeconds: MINUTE, fallback: 120, what: 'writes per credential per minute' },
} as const;

export type RateLimitName = keyof typeof RATE_LIMIT_VARIABLES;

/** Every limit as the HTTP kit's RateLimits takes it: at most `limit` hits per `windowSeconds`; 0 turns it off. */
export type RateLimitSettings = Record<RateLimitName, { limit: number; windowSeconds: number }>;

/** The defaults this package does not own. */
export interface RateLimitDefaults {
  /** The domain's SIGN_IN_MAX_CODES_PER_HOUR. */
  signInPerAddress: number;
}

export function readRateLimits(env: FlatEnv, defaults: RateLimitDefaults): RateLimitSettings {
  const limits = {} as RateLimitSettings;
  for (const name of Object.keys(RATE_LIMIT_VARIABLES) as RateLimitName[]) {
    const v = RATE_LIMIT_VARIABLES[name];
    const fallback = v.fallback ?? defaults[name as keyof RateLimitDefaults];
    const limit = readWholeNumber(env, v.variable, { min: 0, max: 1_000_000, minMeans: 'no limit', what: v.what, fallback });
    limits[name] = { limit, windowSeconds: v.windowSeconds };
  }
  return limits;
}

/**
 * TRUST_PROXY as Express takes it: unset or "false" (the socket's address is the client),
 * "true" (trust every proxy), a number of hops, or a comma-separated list of addresses or
 * subnets such as "loopback, 10.0.0.0/8".
 */
export function readTrustProxy(env: FlatEnv): boolean | number | string {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (!/^[A-Za-z0-9.:/,\s_-]+$/.test(raw)) {
    throw new ConfigError(
      'TRUST_PROXY',
      `must be true, false, a number of proxy hops, or a list of addresses or subnets (e.g. "loopback, 10.0.0.0/8"); got "${raw}".`,
    );
  }
  return raw;
}
