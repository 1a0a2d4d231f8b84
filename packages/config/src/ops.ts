import { ConfigError, type FlatEnv } from './env';
import { readPort, readWholeNumber } from './values';

/**
 * Who may read a host's /metrics. Never public by default: with neither setting it is not
 * served at all (a 404, like any unknown path).
 */
export interface MetricsSettings {
  /** METRICS_TOKEN: /metrics on the host's own port, for `Authorization: Bearer <token>` only. */
  token: string | null;
  /** METRICS_PORT: /metrics on a port of its own (keep it off the public network); the token, when set, is asked there too. */
  port: number | null;
}

/** What a host does for the people who run it: metrics, and how long it drains after SIGTERM. */
export interface OpsSettings {
  metrics: MetricsSettings;
  /** DRAIN_DELAY_MS: after SIGTERM, /readyz answers 503 and requests are still served this long before the port closes. */
  drainDelayMs: number;
}

const TOKEN_MIN = 16;

export function readMetricsSettings(env: FlatEnv): MetricsSettings {
  const token = env.METRICS_TOKEN ?? null;
  if (token !== null && (token.length < TOKEN_MIN || !/^[\x21-\x7e]+$/.test(token))) {
    throw new ConfigError('METRICS_TOKEN', `must be at least ${TOKEN_MIN} printable characters without spaces (openssl rand -hex 24).`);
  }
  const port = env.METRICS_PORT === undefined ? null : readPort(env, 'METRICS_PORT', 0, 1);
  return { token, port };
}

export const DEFAULT_DRAIN_DELAY_MS = 0;

export const readOpsSettings = (env: FlatEnv): OpsSettings => ({
  metrics: readMetricsSettings(env),
  drainDelayMs: readWholeNumber(env, 'DRAIN_DELAY_MS', { min: 0, max: 60_000, fallback: DEFAULT_DRAIN_DELAY_MS, unit: 'of milliseconds' }),
});
