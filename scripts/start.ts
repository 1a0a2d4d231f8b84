import { resolve } from 'node:path';
import { loadDemoBusiness, migrateToLatest, openServiceDb, resolveDatabase } from '@frontdesk/db';
import { closeServer, createLogger, listen, shutdownOnSignals } from '@frontdesk/http';
import { createProDeskApp, readProDeskConfig } from '@frontdesk/pro-desk';
import { createBookingApp, readBookingConfig } from '@frontdesk/booking';

/**
 * `pnpm start`: a database (DATABASE_URL, or an embedded PostgreSQL on a fresh machine),
 * migrations, the demo business, and both services in this one process. In production the
 * services deploy separately (services/*\/src/main.ts); this is the one-command local run.
 */
async function main(): Promise<void> {
  const logger = createLogger('front-desk');
  const database = await resolveDatabase(process.env, resolve(__dirname, '..'));
  const env = { ...process.env, DATABASE_URL: database.url };
  const proConfig = readProDeskConfig(env);
  const bookingConfig = readBookingConfig(env);
  const { db, close } = openServiceDb('front-desk', database.url, logger);
  await migrateToLatest(db);
  const demo = await loadDemoBusiness(db);

  const clock = () => new Date();
  const pro = createProDeskApp({ db, config: proConfig, logger: logger.child({ service: 'pro-desk' }), clock });
  const booking = createBookingApp({ db, config: bookingConfig, logger: logger.child({ service: 'booking' }), clock });
  const servers = [await listen(pro.app, proConfig.port), await listen(booking.app, bookingConfig.port)];
  shutdownOnSignals(logger, async () => {
    await Promise.all(servers.map(closeServer));
    await close();
    await database.stop();
  });

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
      `  Personal keys:    ${proConfig.publicUrl}/key   (sign-in codes go to this log unless SMTP_URL is set)`,
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
