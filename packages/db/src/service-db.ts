import type { Logger } from 'pino';
import { ChangeFeed } from './changes';
import { Kysely, PostgresDialect } from 'kysely';
import { createDb, createPool, type Db } from './connect';
import { poolStats, readBacklog } from './gauges';
import { migrateToLatest } from './migrate';

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
  database: { url: string; connectTimeoutMs?: number; statementTimeoutMs?: number };
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
  const { url, connectTimeoutMs, statementTimeoutMs } = o.database;
  const pool = createPool(url, {
    applicationName: o.applicationName,
    connectTimeoutMs,
    statementTimeoutMs,
    // While we close, connections ending is what we asked for, not news.
    onConnectionError: (err) => {
      if (!closing) o.logger.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, 'database connection lost; the pool replaces it');
    },
  });
  const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  const changes = new ChangeFeed(url, o.logger);
  return {
    db,
    changes,
    /** What /metrics reads of the database: the pool's connections, and the work waiting in it. */
    gauges: { pool: () => poolStats(pool), backlog: () => readBacklog(db) },
    close: async () => {
      closing = true;
      await changes.close();
      await db.destroy();
    },
  };
}
