import express from 'express';
import { createDb, rateLimitStore } from '@frontdesk/db';
import { createLogger, hostLimits, listen, readRateLimits, scaleRateLimits } from '@frontdesk/http';
import { KeySealer } from '@frontdesk/oauth';
import { randomBytes } from 'node:crypto';
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
    // The limits are counted as in production, but set far above what the benchmark sends.
    rateLimits: scaleRateLimits(readRateLimits({}), 10_000),
    keySealer: new KeySealer(randomBytes(32)),
  };
  const { app } = createProDeskApp({ db, config, logger, clock: () => new Date() });
  const booking = createBookingApp({ db, config, logger, clock: () => new Date() });
  const auth = proKeyAuth(
    { db },
    hostLimits(rateLimitStore(db), () => new Date(), config.rateLimits),
  );
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
