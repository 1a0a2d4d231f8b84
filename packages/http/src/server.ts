import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';

export async function listen(app: Express, port: number, host = '0.0.0.0'): Promise<Server> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

/** Stops taking connections and resolves once in-flight requests have finished. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/** On SIGTERM/SIGINT: run `cleanup` once (close servers, then the database), then exit. */
export function shutdownOnSignals(logger: Logger, cleanup: () => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), 15_000).unref();
    try {
      await cleanup();
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
