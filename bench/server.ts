import express from 'express';
import { createDb } from '@frontdesk/db';
import { createLogger, listen } from '@frontdesk/http';
import { createProDeskApp, proKeyAuth } from '@frontdesk/pro-desk';
import { createBookingApp } from '@frontdesk/booking';

/**
 * The process under load: the pro-desk app, the booking app and, for the baseline, a bare
 * Express JSON endpoint behind the very same key check, each on its own port. Prints them.
 */
async function main(): Promise<void> {
  const db = createDb(process.env.DATABASE_URL!, { applicationName: 'bench', maxConnections: 10 });
  const logger = createLogger('bench', process.env.LOG_LEVEL ?? 'warn');
  const config = {
    publicUrl: 'http://bench',
    bookingUrl: 'http://bench',
    proDeskUrl: 'http://bench',
    publicSharedKey: process.env.PUBLIC_SHARED_KEY!,
    mcpAllowedOrigins: [],
  };
  const { app } = createProDeskApp({ db, config, logger, clock: () => new Date() });
  const booking = createBookingApp({ db, config, logger, clock: () => new Date() });
  const auth = proKeyAuth({ db });
  const bare = express();
  bare.get('/bare', async (req, res) => {
    try {
      const pro = await auth(req);
      res.json({ ok: true, pro_id: pro.id });
    } catch {
      res.status(401).json({ error: 'unauthorized' });
    }
  });
  const api = await listen(app, 0, '127.0.0.1');
  const base = await listen(bare, 0, '127.0.0.1');
  const book = await listen(booking.app, 0, '127.0.0.1');
  const port = (s: typeof api) => (s.address() as { port: number }).port;
  process.stdout.write(`${JSON.stringify({ api: port(api), bare: port(base), book: port(book) })}\n`);
}

process.once('SIGTERM', () => process.exit(0));
process.once('SIGINT', () => process.exit(0));
void main();
