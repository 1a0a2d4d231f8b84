import { openServiceDb } from '@frontdesk/db';
import { closeServer, createLogger, listen, shutdownOnSignals } from '@frontdesk/http';
import { createBookingApp } from './app';
import { readBookingConfig } from './config';

/** Entry point of the deployable booking service. */
async function main(): Promise<void> {
  const logger = createLogger('booking', process.env.LOG_LEVEL ?? 'info');
  const config = readBookingConfig();
  const { db, changes, startWorkers, close } = openServiceDb('booking', config.databaseUrl, logger);
  startWorkers();
  const { app } = createBookingApp({ db, config, logger, clock: () => new Date(), changes });
  const server = await listen(app, config.port, '0.0.0.0', 'BOOKING_PORT');
  shutdownOnSignals(logger, async () => {
    await closeServer(server);
    await close();
  });
  logger.info({ port: config.port, url: config.publicUrl }, 'booking listening');
}

main().catch((err) => {
  process.stderr.write(`booking failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
