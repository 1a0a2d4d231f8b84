import { migrateDatabase } from '@frontdesk/db';
import { readMigrateConfig } from './config';

/** `node dist/migrate.js`: brings DATABASE_URL's schema to the latest migration, then exits. */
Promise.resolve()
  .then(() => migrateDatabase(readMigrateConfig().databaseUrl))
  .then((applied) => process.stdout.write(`${JSON.stringify({ applied })}\n`))
  .catch((err: unknown) => {
    process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
