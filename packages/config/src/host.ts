import type { FlatEnv } from './env';
import { readDatabaseSettings, readRequestDeadline, type DatabaseSettings } from './database';
import { readKeyEncryptionKeys, readPublicClient, type KeyEncryptionKeys, type PublicClientSettings } from './keys';
import { readMailSettings, type MailSettings } from './mail';
import { readRateLimits, readTrustProxy, type RateLimitDefaults, type RateLimitSettings } from './rate-limits';
import { readChoice, readFlag, readOrigins } from './values';
import { readOpsSettings, type OpsSettings } from './ops';

/** pino's levels; `silent` logs nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Browser origins allowed to call /mcp besides the host's own and loopback ones. */
export const DEFAULT_MCP_ORIGINS = ['https://claude.ai', 'https://chatgpt.com'];

/** LOG_LEVEL, `info` by default. */
export const readLogLevel = (env: FlatEnv): LogLevel => readChoice(env, 'LOG_LEVEL', LOG_LEVELS, 'info');

/** What both hosts read alike; each host adds its own ports, URLs and keys. */
export interface HostSettings extends PublicClientSettings, OpsSettings {
  database: DatabaseSettings;
  /** REQUEST_DEADLINE_MS: every request is answered within it. */
  requestDeadlineMs: number;
  /** MCP_ALLOWED_ORIGINS. */
  mcpAllowedOrigins: string[];
  /** Every RATE_LIMIT_*, shared by all replicas through PostgreSQL. */
  rateLimits: RateLimitSettings;
  /** TRUST_PROXY: whose X-Forwarded-For names the client. */
  trustProxy: boolean | number | string;
  keyEncryptionKeys: KeyEncryptionKeys;
  mail: MailSettings;
  logLevel: LogLevel;
  /** FRONT_DESK_CHECK_ANSWERS: every answer is checked against its operation's output schema (on in tests). */
  checkAnswers: boolean;
}

export function readHostSettings(env: FlatEnv, defaults: RateLimitDefaults): HostSettings {
  return {
    database: readDatabaseSettings(env),
    requestDeadlineMs: readRequestDeadline(env),
    mcpAllowedOrigins: readOrigins(env, 'MCP_ALLOWED_ORIGINS', DEFAULT_MCP_ORIGINS),
    rateLimits: readRateLimits(env, defaults),
    trustProxy: readTrustProxy(env),
    keyEncryptionKeys: readKeyEncryptionKeys(env),
    ...readPublicClient(env),
    mail: readMailSettings(env),
    logLevel: readLogLevel(env),
    checkAnswers: readFlag(env, 'FRONT_DESK_CHECK_ANSWERS'),
    ...readOpsSettings(env),
  };
}
