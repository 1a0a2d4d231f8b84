import type { Logger } from 'pino';
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
 * timeouts from DATABASE_CONNECT_TIMEOUT_MS and DATABASE_STATEMENT_TIMEOUT_MS), and, once
 * the schema is there, the outbox worker. `close` stops them in order, after the server
 * stopped taking requests.
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
  return {
    db,
    /** Mail (sign-in codes) leaves through the outbox; every replica may deliver it. */
    startWorkers: () => {
      outbox ??= startOutboxWorkerFromEnv(db, logger, env);
    },
    close: async () => {
      closing = true;
      await outbox?.stop();
      await db.destroy();
    },
  };
}
