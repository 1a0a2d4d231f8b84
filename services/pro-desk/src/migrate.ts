import { migrateDatabase } from '@frontdesk/db';
import { readDatabaseUrl } from '@frontdesk/http';

/** `node dist/migrate.js`: brings DATABASE_URL's schema to the latest migration, then exits. */
migrateDatabase(readDatabaseUrl(process.env))
  .then((applied) => process.stdout.write(`${JSON.stringify({ applied })}\n`))
  .catch((err: unknown) => {
    process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
