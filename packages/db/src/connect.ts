import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database';

// bigint (event cursors) and numeric (half bathrooms) arrive as numbers: every value we
// keep in them is far inside the range a double represents exactly.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (v: string) => Number.parseInt(v, 10);
    if (oid === pg.types.builtins.NUMERIC) return (v: string) => Number.parseFloat(v);
    return pg.types.getTypeParser(oid, format);
  },
} as unknown as pg.CustomTypesConfig;

export interface DbOptions {
  maxConnections?: number;
  applicationName?: string;
}

export function createPool(url: string, options: DbOptions = {}): pg.Pool {
  return new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    application_name: options.applicationName ?? 'front-desk',
    types,
  });
}

export function createDb(url: string, options: DbOptions = {}): Kysely<Database> {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: createPool(url, options) }) });
}

export type Db = Kysely<Database>;
