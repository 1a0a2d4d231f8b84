import { ConfigError, flatten, type FlatEnv } from './env';
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

/**
 * Where a host sends its traces (OpenTelemetry, OTLP over HTTP): the standard variables, as
 * any OpenTelemetry exporter reads them. Off unless one is set: then no SDK is even loaded.
 */
export interface TracingSettings {
  /** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (the full URL), else OTEL_EXPORTER_OTLP_ENDPOINT (its /v1/traces); null: no traces. */
  endpoint: string | null;
}

/** What a host does for the people who run it: metrics, traces, and how long it drains after SIGTERM. */
export interface OpsSettings {
  metrics: MetricsSettings;
  tracing: TracingSettings;
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

/** The OTLP endpoint the exporter will use, as the OpenTelemetry specification resolves it; an empty value is unset. */
export function readTracingSettings(env: FlatEnv): TracingSettings {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  for (const [name, value] of [
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', traces],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', base],
  ] as const) {
    if (value && !/^https?:\/\/[^\s]+$/.test(value))
      throw new ConfigError(name, 'must be an http:// or https:// URL (an OTLP/HTTP receiver, e.g. http://otel-collector:4318).');
  }
  if (traces) return { endpoint: traces };
  if (base) return { endpoint: `${base.replace(/\/+$/, '')}/v1/traces` };
  return { endpoint: null };
}

export const DEFAULT_DRAIN_DELAY_MS = 0;

export const readOpsSettings = (env: FlatEnv): OpsSettings => ({
  metrics: readMetricsSettings(env),
  tracing: readTracingSettings(env),
  drainDelayMs: readWholeNumber(env, 'DRAIN_DELAY_MS', { min: 0, max: 60_000, fallback: DEFAULT_DRAIN_DELAY_MS, unit: 'of milliseconds' }),
});

/**
 * The tracing settings of this process's own environment: what a host's first import reads,
 * before its config is, to decide whether OpenTelemetry loads at all.
 */
export const tracingSettingsOfProcess = (): TracingSettings => readTracingSettings(flatten(process.env));
