import { migrateDatabase, openServiceDb } from '@frontdesk/db';
import { closeServer, createLogger, listen, shutdownOnSignals } from '@frontdesk/http';
import { startWorkers, webhookOptions } from '@frontdesk/workers';
import { createProDeskApp } from './app';
import { readProDeskConfig } from './config';

/** Entry point of the deployable pro-desk service: config, optional migration, workers, app, serve. */
async function main(): Promise<void> {
  const config = readProDeskConfig();
  const logger = createLogger('pro-desk', config.logLevel);
  if (config.migrateOnStart) await migrateDatabase(config.database.url);
  const { db, changes, close } = openServiceDb({ applicationName: 'pro-desk', database: config.database, logger });
  const clock = () => new Date();
  const workers = startWorkers({ db, changes, logger, clock, mail: config.mail, webhooks: webhookOptions(config) });
  const { app } = createProDeskApp({ db, config, logger, clock, changes });
  const server = await listen(app, config.port, '0.0.0.0', 'PRO_DESK_PORT');
  shutdownOnSignals(logger, async () => {
    await closeServer(server);
    await workers.stop();
    await close();
  });
  logger.info({ port: config.port, url: config.publicUrl }, 'pro-desk listening');
}

main().catch((err) => {
  process.stderr.write(`pro-desk failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
