import { openServiceDb } from '@frontdesk/db';
import { closeServer, createLogger, listen, shutdownOnSignals } from '@frontdesk/http';
import { startWorkers, webhookOptions } from '@frontdesk/workers';
import { createBookingApp } from './app';
import { readBookingConfig } from './config';

/** Entry point of the deployable booking service: config, workers, app, serve. */
async function main(): Promise<void> {
  const config = readBookingConfig();
  const logger = createLogger('booking', config.logLevel);
  const { db, changes, close } = openServiceDb({ applicationName: 'booking', database: config.database, logger });
  const clock = () => new Date();
  const workers = startWorkers({ db, changes, logger, clock, mail: config.mail, webhooks: webhookOptions(config) });
  const { app } = createBookingApp({ db, config, logger, clock, changes });
  const server = await listen(app, config.port, '0.0.0.0', 'BOOKING_PORT');
  shutdownOnSignals(logger, async () => {
    await closeServer(server);
    await workers.stop();
    await close();
  });
  logger.info({ port: config.port, url: config.publicUrl }, 'booking listening');
}

main().catch((err) => {
  process.stderr.write(`booking failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
