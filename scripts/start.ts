import { resolve } from 'node:path';
import { flatten, readDevDatabase, withDatabaseUrl, withLocalKeyEncryptionKey, type Env } from '@frontdesk/config';
import { migrateDatabase, openServiceDb, resolveDatabase } from '@frontdesk/db';
import { DEMO_OWNER_EMAIL, loadDemoBusiness } from '@frontdesk/use-cases';
import { bindPort, closeServer, createLogger, shutdownOnSignals, type BoundPort } from '@frontdesk/http';
import { createProDeskApp, hostMailOf, readProDeskConfig } from '@frontdesk/pro-desk';
import { createBookingApp, readBookingConfig } from '@frontdesk/booking';
import { startWorkers, webhookOptions } from '@frontdesk/workers';

const ROOT = resolve(__dirname, '..');

/** Both hosts' configs, read by their own readers from the local run's environment with the database chosen. */
const hostConfigs = (env: Env, databaseUrl: string) => {
  const withDatabase = withDatabaseUrl(env, databaseUrl);
  return { pro: readProDeskConfig(withDatabase), booking: readBookingConfig(withDatabase) };
};

/**
 * `pnpm start`: a database (DATABASE_URL, or an embedded PostgreSQL on a fresh machine),
 * migrations, the demo business, and both services in this one process. In production the
 * services deploy separately (services/*\/src/main.ts); this is the one-command local run.
 *
 * Order matters: the ports are taken first (a port in use stops us before anything is
 * written), the schema is migrated before any worker touches it, and on SIGINT or SIGTERM
 * everything started is stopped in reverse: servers, workers and pool, then the database.
 */
async function main(): Promise<void> {
  // Signing keys are sealed with KEY_ENCRYPTION_KEY; a local run without one makes it once in the data folder.
  // Without SMTP_URL, mail (sign-in codes) is printed to this terminal: FRONT_DESK_LOCAL_MAIL.
  const local = { ...withLocalKeyEncryptionKey(process.env, ROOT), FRONT_DESK_LOCAL_MAIL: '1' };
  const chosen = readDevDatabase(flatten(local), ROOT);
  // The ports and URLs are known before the database is: the embedded one's URL is filled in once it runs.
  const before = hostConfigs(local, chosen.url ?? 'postgres://chosen-below');
  const logger = createLogger('front-desk', before.pro.logLevel);
  let ports: BoundPort[] = [];
  const resources: Array<() => Promise<void>> = []; // stopped last-in, first-out
  shutdownOnSignals(logger, async () => {
    await Promise.all(ports.map((p) => closeServer(p.server)));
    for (const stop of resources.reverse()) await stop();
  });
  ports = [await bindPort(before.pro.port, '0.0.0.0', 'PRO_DESK_PORT'), await bindPort(before.booking.port, '0.0.0.0', 'BOOKING_PORT')];

  const database = await resolveDatabase(chosen);
  resources.push(() => database.stop());
  await migrateDatabase(database.url);
  const { pro: proConfig, booking: bookingConfig } = hostConfigs(local, database.url);
  const { db, changes, close } = openServiceDb({ applicationName: 'front-desk', database: proConfig.database, logger });
  resources.push(close);
  const clock = () => new Date();
  // One process serves both hosts: one set of workers.
  const workers = startWorkers({
    db,
    changes,
    logger,
    clock,
    mail: proConfig.mail,
    customerMail: { bookingUrl: proConfig.bookingUrl },
    webhooks: webhookOptions(proConfig),
    hostMail: hostMailOf(proConfig),
  });
  resources.push(() => workers.stop());
  const demo = await loadDemoBusiness(db, clock());

  const pro = createProDeskApp({ db, config: proConfig, logger: logger.child({ service: 'pro-desk' }), clock, changes });
  const booking = createBookingApp({ db, config: bookingConfig, logger: logger.child({ service: 'booking' }), clock, changes });
  ports[0]!.serve(pro.app);
  ports[1]!.serve(booking.app);

  const line = '-'.repeat(72);
  process.stdout.write(
    [
      '',
      line,
      'Front Desk is running.',
      `  Database:         ${database.source}`,
      `  Pro desk (base):  ${proConfig.publicUrl}   (OpenAPI: ${proConfig.publicUrl}/openapi.json)`,
      `  Booking (book):   ${bookingConfig.publicUrl}   (OpenAPI: ${bookingConfig.publicUrl}/openapi.json)`,
      `  Demo business:    ${demo.pro.name} (${demo.pro.id})`,
      `  Demo pro key:     ${demo.apiKey}${demo.created ? '' : '   (new each start; earlier demo keys no longer work)'}`,
      `  Public key:       ${bookingConfig.publicSharedKey}   (the shared public key for the booking service)`,
      `  Sign up:          ${proConfig.publicUrl}/signup   (a business of your own; sign-in codes are printed here unless SMTP_URL is set)`,
      `  Dashboard:        ${proConfig.publicUrl}/dashboard   (the demo's owner signs in as ${DEMO_OWNER_EMAIL})`,
      `  Personal keys:    ${proConfig.publicUrl}/key`,
      '',
      '  Try it:',
      `    curl -H "Authorization: Bearer ${demo.apiKey}" "${proConfig.publicUrl}/api/v1/quote_job?bedrooms=3&bathrooms=2"`,
      `    curl -H "Authorization: Bearer ${bookingConfig.publicSharedKey}" "${bookingConfig.publicUrl}/api/v1/find_cleaners?zip=10001&bedrooms=2&bathrooms=1"`,
      '  Stop with Ctrl+C.',
      line,
      '',
    ].join('\n'),
  );
}

main().catch((err) => {
  process.stderr.write(`Front Desk failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
