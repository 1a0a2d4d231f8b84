import type { Logger } from 'pino';
import { ChangeFeed } from './changes';
import { Kysely, PostgresDialect } from 'kysely';
import { createDb, createPool, type Db } from './connect';
import { poolStats, readBacklog } from './gauges';
import { migrateToLatest } from './migrate';
import { ReplicaSet } from './replicas';

/** Brings the schema up to date over a connection of its own, with no statement timeout. */
export async function migrateDatabase(url: string, applicationName = 'front-desk-migrate'): Promise<string[]> {
  const db = createDb(url, { maxConnections: 1, applicationName, statementTimeoutMs: 0 });
  try {
    return await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}

export interface ServiceDbOptions {
  applicationName: string;
  /** The host config's database settings; a timeout left out is the pool's default. */
  database: { url: string; connectTimeoutMs?: number; statementTimeoutMs?: number; readUrls?: string[]; readMaxLagMs?: number };
  logger: Logger;
}

/**
 * What every entry point opens: the pool (connection failures logged, never fatal) and the
 * change feed the in-process caches trust. Opening starts nothing: the workers (packages/workers)
 * start the feed and the timed jobs once the schema is there. `close` ends the feed and the
 * pool, after the server stopped taking requests and the workers stopped.
 */
export function openServiceDb(o: ServiceDbOptions) {
  let closing = false;
  const { url, connectTimeoutMs, statementTimeoutMs, readUrls = [], readMaxLagMs } = o.database;
  const poolOptions = {
    applicationName: o.applicationName,
    connectTimeoutMs,
    statementTimeoutMs,
    // While we close, connections ending is what we asked for, not news.
    onConnectionError: (err: Error) => {
      if (!closing) o.logger.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, 'database connection lost; the pool replaces it');
    },
  };
  const pool = createPool(url, poolOptions);
  const changes = new ChangeFeed(url, o.logger);
  // With replicas, every connection is asked of the set: the primary's, unless the call was
  // declared to read a replica (readsFromReplica) and one is close enough.
  const replicas = readUrls.length > 0 ? new ReplicaSet(pool, readUrls, { maxLagMs: readMaxLagMs, changes, pool: poolOptions, logger: o.logger }) : null;
  if (replicas) changes.readRoute = replicas;
  const db: Db = new Kysely({ dialect: new PostgresDialect({ pool: replicas ? async () => replicas.start() : pool }) });
  return {
    db,
    changes,
    replicas,
    /** What /metrics reads of the database: the pool's connections, and the work waiting in it. */
    gauges: { pool: () => poolStats(pool), backlog: () => readBacklog(db), ...(replicas ? { replicas: () => replicas.status() } : {}) },
    close: async () => {
      closing = true;
      await changes.close();
      await db.destroy();
    },
  };
}
