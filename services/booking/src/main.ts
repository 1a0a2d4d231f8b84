import { createDb, startOutboxWorkerFromEnv } from '@frontdesk/db';
import { closeServer, createLogger, listen, shutdownOnSignals } from '@frontdesk/http';
import { createBookingApp } from './app';
import { readBookingConfig } from './config';

/** Entry point of the deployable booking service. */
async function main(): Promise<void> {
  const logger = createLogger('booking');
  const config = readBookingConfig();
  const db = createDb(config.databaseUrl, {
    applicationName: 'booking',
    onIdleError: (err) => logger.warn({ err }, 'idle database connection closed'),
  });
  const { app } = createBookingApp({ db, config, logger, clock: () => new Date() });
  const server = await listen(app, config.port);
  // Mail (sign-in codes) leaves through the outbox; every replica may deliver it.
  const outbox = startOutboxWorkerFromEnv(db, logger);
  shutdownOnSignals(logger, async () => {
    await closeServer(server);
    await outbox.stop();
    await db.destroy();
  });
  logger.info({ port: config.port, url: config.publicUrl }, 'booking listening');
}

main().catch((err) => {
  process.stderr.write(`booking failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
