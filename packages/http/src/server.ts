import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';

/** Listens, and on SIGTERM/SIGINT stops taking connections, finishes requests, then cleans up. */
export async function serve(
  app: Express,
  port: number,
  logger: Logger,
  onShutdown: () => Promise<void>,
  host = '0.0.0.0',
): Promise<Server> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  server.keepAliveTimeout = 65_000;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close(async () => {
      await onShutdown().catch((err) => logger.error({ err }, 'error during shutdown'));
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  return server;
}
