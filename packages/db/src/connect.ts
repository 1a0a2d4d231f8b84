import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './database';

// bigint (event cursors) and numeric (half bathrooms) arrive as numbers: every value we
// keep in them is far inside the range a double represents exactly.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (v: string) => Number.parseInt(v, 10);
    if (oid === pg.types.builtins.NUMERIC) return (v: string) => Number.parseFloat(v);
    // A calendar day stays a YYYY-MM-DD string: as a Date it would shift with the server zone.
    if (oid === pg.types.builtins.DATE) return (v: string) => v;
    return pg.types.getTypeParser(oid, format);
  },
} as unknown as pg.CustomTypesConfig;

export interface DbOptions {
  maxConnections?: number;
  applicationName?: string;
  /** Told when an idle connection fails; the pool itself recovers. */
  onIdleError?: (err: Error) => void;
}

export function createPool(url: string, options: DbOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    application_name: options.applicationName ?? 'front-desk',
    types,
  });
  // An idle connection the server ends (restart, failover, a forced drop) emits 'error' on
  // the pool; unhandled, that would crash the process. The pool replaces the connection.
  pool.on('error', (err) => options.onIdleError?.(err));
  return pool;
}

export function createDb(url: string, options: DbOptions = {}): Kysely<Database> {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: createPool(url, options) }) });
}

export type Db = Kysely<Database>;

/** Readiness: resolves when the database answers a query (what /readyz reports). */
export async function databaseReady(db: Db): Promise<void> {
  await sql`SELECT 1`.execute(db);
}
