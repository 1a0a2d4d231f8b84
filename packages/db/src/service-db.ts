import type { Logger } from 'pino';
import { ChangeFeed } from './changes';
import { createDb, readDbTimeouts } from './connect';
import { startOutboxWorkerFromEnv } from './mail';
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

/**
 * What every entry point opens: the pool (connection failures logged, never fatal; the
 * timeouts from DATABASE_CONNECT_TIMEOUT_MS and DATABASE_STATEMENT_TIMEOUT_MS), the change
 * feed the in-process caches trust, and, once the schema is there, the outbox worker.
 * `close` stops them in order, after the server stopped taking requests.
 */
export function openServiceDb(applicationName: string, url: string, logger: Logger, env: NodeJS.ProcessEnv = process.env) {
  let closing = false;
  const db = createDb(url, {
    applicationName,
    ...readDbTimeouts(env),
    // While we close, connections ending is what we asked for, not news.
    onConnectionError: (err) => {
      if (!closing) logger.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, 'database connection lost; the pool replaces it');
    },
  });
  let outbox: { stop(): Promise<void> } | null = null;
  const changes = new ChangeFeed(url, logger);
  return {
    db,
    changes,
    /** Mail (sign-in codes) leaves through the outbox; every replica may deliver it. Changes are listened for. */
    startWorkers: () => {
      outbox ??= startOutboxWorkerFromEnv(db, logger, env);
      void changes.start();
    },
    close: async () => {
      closing = true;
      await changes.close();
      await outbox?.stop();
      await db.destroy();
    },
  };
}
