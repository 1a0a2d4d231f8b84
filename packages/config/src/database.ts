import { resolve } from 'node:path';
import { ConfigError, type FlatEnv } from './env';
import { readFlag, readPort, readWholeNumber, type WholeNumberRule } from './values';

/** What a service needs to open its database. */
export interface DatabaseSettings {
  /** DATABASE_URL (or DATABASE_URL_FILE), with DATABASE_PASSWORD in it when that is set. */
  url: string;
  /** DATABASE_CONNECT_TIMEOUT_MS; unset: the pool's default (a few seconds). */
  connectTimeoutMs?: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS; unset: the pool's default (a few seconds). */
  statementTimeoutMs?: number;
  /** DATABASE_READ_URL: streaming replicas for reads that may be a few seconds stale; none by default. */
  readUrls?: string[];
  /** DATABASE_READ_MAX_LAG_MS: a replica further behind the primary than this is not read. */
  readMaxLagMs?: number;
}

/** DATABASE_READ_MAX_LAG_MS unless set: a replica more than 5 seconds behind is not read. */
export const DEFAULT_READ_MAX_LAG_MS = 5000;

/** The database of `pnpm start` and `pnpm cli`: DATABASE_URL when set, else the embedded server. */
export interface DevDatabaseSettings {
  url?: string;
  /** EMBEDDED_PG_PORT. */
  embeddedPort: number;
  /** FRONT_DESK_DATA_DIR, by default `.data` in the project: the embedded server's data and the local key-encryption key. */
  dataDir: string;
}

const TIMEOUT: Omit<WholeNumberRule, 'fallback'> = { min: 0, max: 600_000, unit: 'of milliseconds', minMeans: 'no limit' };

function checkedUrl(raw: string, name = 'DATABASE_URL'): string {
  try {
    new URL(raw);
  } catch {
    // The value is not repeated: it may hold a password.
    throw new ConfigError(name, 'is not a valid URL; expected postgres://user:pass@host:5432/dbname.');
  }
  return raw;
}

/** DATABASE_READ_URL: one replica's URL, or several separated by commas; unset or empty: none. */
export function readReplicaUrls(env: FlatEnv): string[] {
  const raw = env.DATABASE_READ_URL ?? '';
  return raw
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '')
    .map((u) => checkedUrl(u, 'DATABASE_READ_URL'));
}

/** DATABASE_URL, required: a service on its own has no other database to use. */
export function readDatabaseUrl(env: FlatEnv): string {
  const url = env.DATABASE_URL;
  if (!url) throw new ConfigError('DATABASE_URL', 'must be set to a PostgreSQL URL, e.g. postgres://user:pass@host:5432/frontdesk.');
  return checkedUrl(url);
}

/** A timeout, or undefined when unset (the pool then applies its own default). */
const timeout = (env: FlatEnv, name: string) => (env[name] === undefined ? undefined : readWholeNumber(env, name, { ...TIMEOUT, fallback: 0 }));

export function readDatabaseSettings(env: FlatEnv): DatabaseSettings {
  return {
    url: readDatabaseUrl(env),
    connectTimeoutMs: timeout(env, 'DATABASE_CONNECT_TIMEOUT_MS'),
    statementTimeoutMs: timeout(env, 'DATABASE_STATEMENT_TIMEOUT_MS'),
    readUrls: readReplicaUrls(env),
    readMaxLagMs: readWholeNumber(env, 'DATABASE_READ_MAX_LAG_MS', { min: 100, max: 600_000, fallback: DEFAULT_READ_MAX_LAG_MS, unit: 'of milliseconds' }),
  };
}

/** REQUEST_DEADLINE_MS unless set: every request is answered within 8 seconds. */
export const DEFAULT_REQUEST_DEADLINE_MS = 8000;

/**
 * REQUEST_DEADLINE_MS: the longest any request takes before it is answered (503 with
 * Retry-After when its work is not done); its database work stops then too. 1 to 60 seconds.
 */
export const readRequestDeadline = (env: FlatEnv): number =>
  readWholeNumber(env, 'REQUEST_DEADLINE_MS', { min: 1000, max: 60_000, fallback: DEFAULT_REQUEST_DEADLINE_MS, unit: 'of milliseconds' });

/** MIGRATE_ON_START: a service brings the schema up to date before it listens. */
export const readMigrateOnStart = (env: FlatEnv): boolean => readFlag(env, 'MIGRATE_ON_START');

/** FRONT_DESK_DATA_DIR, or `.data` in the project. */
export const readDataDir = (env: FlatEnv, projectRoot: string): string => resolve(env.FRONT_DESK_DATA_DIR ?? resolve(projectRoot, '.data'));

export function readDevDatabase(env: FlatEnv, projectRoot: string): DevDatabaseSettings {
  return {
    url: env.DATABASE_URL === undefined ? undefined : checkedUrl(env.DATABASE_URL),
    embeddedPort: readPort(env, 'EMBEDDED_PG_PORT', 54329, 1),
    dataDir: readDataDir(env, projectRoot),
  };
}
