import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database';
import { schemaCurrent } from './migrate';

// bigint (event cursors) and numeric (half bathrooms) arrive as numbers: every value we
// keep in them is far inside the range a double represents exactly.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): unknown {
    if (oid === (pg.types.builtins.INT8 as number)) return (v: string) => Number.parseInt(v, 10);
    if (oid === (pg.types.builtins.NUMERIC as number)) return (v: string) => Number.parseFloat(v);
    // A calendar day stays a YYYY-MM-DD string: as a Date it would shift with the server zone.
    if (oid === (pg.types.builtins.DATE as number)) return (v: string) => v;
    return pg.types.getTypeParser(oid, format) as unknown;
  },
};

/** How long a request may wait on the database before it answers 503 (DESIGN: a few seconds). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;

export interface DbOptions {
  maxConnections?: number;
  applicationName?: string;
  /** Waiting for a pool slot plus opening a connection; 0 waits forever. */
  connectTimeoutMs?: number;
  /**
   * The server cancels a statement running longer (lock waits included), and the client
   * gives up on a server that has not answered a second after that (a frozen or unreachable
   * server cancels nothing). 0 for no limit, as migrations want.
   */
  statementTimeoutMs?: number;
  /** Told when a connection fails, idle or in use; the pool replaces it and the process goes on. */
  onConnectionError?: (err: Error) => void;
}

const deadlines = new AsyncLocalStorage<number | null>();

/**
 * How often the server looks, while a statement runs, whether its client is still there. A
 * query given up at a deadline drops its connection; without this, a lone statement waiting
 * on a lock would still run, and commit, once the lock was free.
 */
const CLIENT_CHECK_MS = 1000;

/**
 * The URL without an `options` parameter, and the server settings for each connection:
 * the check for a client that has gone, after any the URL set (pg would let the URL's
 * `options` replace ours, not add to them).
 */
function withClientCheck(url: string): { connectionString: string; options: string } {
  const check = `-c client_connection_check_interval=${CLIENT_CHECK_MS}`;
  if (!/[?&]options=/.test(url)) return { connectionString: url, options: check };
  const parsed = new URL(url);
  const own = parsed.searchParams.get('options') ?? '';
  parsed.searchParams.delete('options');
  return { connectionString: parsed.toString(), options: `${own} ${check}`.trim() };
}

/**
 * Runs `work` with every query it starts bounded by `deadline` (a time in ms since the
 * epoch): a query gives up when the deadline comes (its connection is dropped, so the server
 * rolls its transaction back), and one started after it fails at once. A request's work thus
 * ends with the request's deadline and cannot commit later. `null` for work that must
 * outlive a request (a key released after an outage).
 */
export function withDeadline<T>(deadline: number | null, work: () => T): T {
  return deadlines.run(deadline, work);
}

/**
 * A query's arguments with its read timeout cut to the deadline of the work that started it,
 * if any; null when that deadline has passed already (the query must not be sent at all: a
 * connection that took until after the deadline to open would still run it).
 *
 * The cut is the time left plus one millisecond. Deadlines are read on Date.now(); pg's read
 * timeout is a Node timer, which counts whole milliseconds of another clock and may fire while
 * Date.now() still reads the deadline's last millisecond. One more makes the error the cut
 * raises come when the deadline has come by Date.now() too, so the request is answered as its
 * deadline (503, "could not answer within…"), not as a database away. No query is sent past
 * the deadline either way.
 */
function boundedByDeadline(args: unknown[], statementTimeout: number): unknown[] | null {
  const deadline = deadlines.getStore();
  if (typeof deadline !== 'number' || typeof args[0] !== 'string' || args.length > 2 || (args[1] !== undefined && !Array.isArray(args[1]))) return args;
  const left = deadline - Date.now();
  if (left <= 0) return null;
  return [{ text: args[0], values: args[1], query_timeout: statementTimeout > 0 ? Math.min(left + 1, statementTimeout + 1000) : left + 1 }];
}

export function createPool(url: string, options: DbOptions = {}): pg.Pool {
  const statementTimeout = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    ...withClientCheck(url),
    max: options.maxConnections ?? 10,
    application_name: options.applicationName ?? 'front-desk',
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    ...(statementTimeout > 0 ? { statement_timeout: statementTimeout, query_timeout: statementTimeout + 1000 } : {}),
    keepAlive: true,
    types,
  });
  const report = (err: Error) => options.onConnectionError?.(err);
  // An idle connection the server ends emits 'error' on the pool.
  pool.on('error', report);
  pool.on('connect', (client) => {
    // A connection dropped while checked out emits 'error' on the client itself, where
    // nobody else listens: unhandled, that event would end the process.
    client.on('error', report);
    // After a client-side read timeout (the statement's, or the deadline of the request that
    // sent it) pg keeps waiting on the same socket, and every later query on it would queue
    // behind the lost one. Drop the socket: the pool then discards the client.
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const drop = () => (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const bounded = boundedByDeadline(args, statementTimeout);
      if (!bounded) {
        // Past its work's deadline: not sent, and the connection (perhaps inside that work's
        // transaction) is dropped, so the server rolls back whatever the work began.
        drop();
        return Promise.reject(new Error('Query read timeout'));
      }
      const result = query(...bounded);
      if (result instanceof Promise) {
        result.catch((err: unknown) => {
          if (err instanceof Error && err.message === 'Query read timeout') drop();
        });
      }
      return result;
    };
  });
  return pool;
}

export function createDb(url: string, options: DbOptions = {}): Kysely<Database> {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: createPool(url, options) }) });
}

export type Db = Kysely<Database>;

/**
 * Readiness (what /readyz reports): resolves when the database answers and its schema has
 * every migration this code ships; else rejects (a NotReadyError says which).
 */
export async function databaseReady(db: Db): Promise<void> {
  await schemaCurrent(db);
}

// SQLSTATE classes and codes that mean "the database is away or busy", not "this request is wrong":
// connection exceptions, insufficient resources, operator intervention (shutdown, cancel,
// statement timeout), lock timeouts, serialization failures and deadlocks.
const UNAVAILABLE_CLASSES = ['08', '53', '57'];
const UNAVAILABLE_CODES = new Set(['55P03', '40001', '40P01']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
// pg's own words for a connection it lost or never got.
const CLIENT_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Query read timeout$/,
  /is not queryable$/,
  /^Client has encountered a connection error/,
  /^Cannot use a pool after calling end/,
];

/**
 * True for an error that says the database could not be reached or could not answer in
 * time: the request was not wrong, and the same request may succeed a moment later.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.length === 5 && (UNAVAILABLE_CLASSES.includes(code.slice(0, 2)) || UNAVAILABLE_CODES.has(code))) return true;
    if (NETWORK_CODES.has(code)) return true;
  }
  if (CLIENT_MESSAGES.some((re) => re.test(err.message))) return true;
  const cause = (err as { cause?: unknown }).cause;
  return cause !== undefined && cause !== err && isDatabaseUnavailable(cause);
}

/** What a host's HTTP layer needs to know of its database: when it is ready, and which errors mean it is away. */
export const databaseHealth = (db: Db) => ({ ready: () => databaseReady(db), isUnavailable: isDatabaseUnavailable });
