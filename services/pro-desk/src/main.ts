import { migrateDatabase, openServiceDb } from '@frontdesk/db';
import { closeServer, createLogger, listen, shutdownOnSignals } from '@frontdesk/http';
import { startSeriesWorker } from '@frontdesk/use-cases';
import { createProDeskApp } from './app';
import { readProDeskConfig } from './config';

/** Entry point of the deployable pro-desk service: config, optional migration, app, serve. */
async function main(): Promise<void> {
  const logger = createLogger('pro-desk', process.env.LOG_LEVEL ?? 'info');
  const config = readProDeskConfig();
  if (process.env.MIGRATE_ON_START === 'true') await migrateDatabase(config.databaseUrl);
  const { db, changes, startWorkers, close } = openServiceDb('pro-desk', config.databaseUrl, logger);
  startWorkers();
  const seriesWorker = startSeriesWorker(db, logger);
  const { app } = createProDeskApp({ db, config, logger, clock: () => new Date(), changes });
  const server = await listen(app, config.port, '0.0.0.0', 'PRO_DESK_PORT');
  shutdownOnSignals(logger, async () => {
    await closeServer(server);
    await seriesWorker.stop();
    await close();
  });
  logger.info({ port: config.port, url: config.publicUrl }, 'pro-desk listening');
}

main().catch((err) => {
  process.stderr.write(`pro-desk failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
