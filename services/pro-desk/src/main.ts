import { createDb, startOutboxWorkerFromEnv, migrateToLatest } from '@frontdesk/db';
import { closeServer, createLogger, listen, shutdownOnSignals } from '@frontdesk/http';
import { createProDeskApp } from './app';
import { readProDeskConfig } from './config';

/** Entry point of the deployable pro-desk service: config, optional migration, app, serve. */
async function main(): Promise<void> {
  const logger = createLogger('pro-desk');
  const config = readProDeskConfig();
  const db = createDb(config.databaseUrl, {
    applicationName: 'pro-desk',
    onIdleError: (err) => logger.warn({ err }, 'idle database connection closed'),
  });
  if (process.env.MIGRATE_ON_START === 'true') await migrateToLatest(db);
  const { app } = createProDeskApp({ db, config, logger, clock: () => new Date() });
  const server = await listen(app, config.port);
  // Mail (sign-in codes) leaves through the outbox; every replica may deliver it.
  const outbox = startOutboxWorkerFromEnv(db, logger);
  shutdownOnSignals(logger, async () => {
    await closeServer(server);
    await outbox.stop();
    await db.destroy();
  });
  logger.info({ port: config.port, url: config.publicUrl }, 'pro-desk listening');
}

main().catch((err) => {
  process.stderr.write(`pro-desk failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
