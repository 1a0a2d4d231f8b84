import type { Logger } from 'pino';
import { createDb } from './connect';
import { startOutboxWorkerFromEnv } from './mail';

/**
 * What every entry point opens: the pool (idle-connection failures logged, not fatal) and
 * the outbox worker; `close` stops them in order, after the server stopped taking requests.
 */
export function openServiceDb(applicationName: string, url: string, logger: Logger, env: NodeJS.ProcessEnv = process.env) {
  const db = createDb(url, { applicationName, onIdleError: (err) => logger.warn({ err }, 'idle database connection closed') });
  // Mail (sign-in codes) leaves through the outbox; every replica may deliver it.
  const outbox = startOutboxWorkerFromEnv(db, logger, env);
  return {
    db,
    close: async () => {
      await outbox.stop();
      await db.destroy();
    },
  };
}
