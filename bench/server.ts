import express from 'express';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { openServiceDb, rateLimitStore } from '@frontdesk/db';
import { createLogger, defaultRateLimits, hostLimits, scaleRateLimits } from '@frontdesk/http';
import { startWorkers } from '@frontdesk/workers';
import { KeySealer } from '@frontdesk/oauth';
import { createProDeskApp, proKeyAuth } from '@frontdesk/pro-desk';
import { createBookingApp } from '@frontdesk/booking';

/**
 * One host under load, in a process of its own as in production (`pro` or `book` as the
 * argument). The pro host also answers GET /bare: the very same key check in front of a
 * bare JSON answer, the floor of any authenticated call. Prints its port.
 */
async function main(): Promise<void> {
  const host = process.argv[2];
  const logger = createLogger(`bench-${host}`, process.env.LOG_LEVEL ?? 'warn');
  const { db, changes, close } = openServiceDb({ applicationName: `bench-${host}`, database: { url: process.env.DATABASE_URL! }, logger });
  const config = {
    publicUrl: 'http://bench',
    bookingUrl: 'http://bench',
    proDeskUrl: 'http://bench',
    publicSharedKey: process.env.PUBLIC_SHARED_KEY!,
    mcpAllowedOrigins: [],
    // The limits are counted as in production, but set far above what the benchmark sends.
    rateLimits: scaleRateLimits(defaultRateLimits(), 10_000),
    keySealer: new KeySealer(randomBytes(32)),
  };
  const clock = () => new Date();
  // The workers run as in production: the caches are measured with the change feed listening.
  const workers = startWorkers({ db, changes, logger, clock, mail: { from: 'bench@localhost', printLocally: false } });
  const ctx = { db, config, logger, clock, changes };
  // The host's app is served as production serves it, straight from the HTTP server; /bare alone goes elsewhere.
  const bare = express();
  let service: express.Express;
  if (host === 'pro') {
    const auth = proKeyAuth(ctx, hostLimits(rateLimitStore(db), ctx.clock, config.rateLimits));
    bare.get('/bare', async (req, res) => {
      try {
        const pro = await auth(req);
        res.json({ ok: true, pro_id: pro.id });
      } catch {
        res.status(401).json({ error: 'unauthorized' });
      }
    });
    service = createProDeskApp(ctx).app;
  } else {
    service = createBookingApp(ctx).app;
  }
  const server = createServer((req, res) => (req.url?.startsWith('/bare') ? bare(req, res) : service(req, res)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`${JSON.stringify({ bench_port: (server.address() as { port: number }).port })}\n`);
  const stop = () =>
    void workers
      .stop()
      .then(close)
      .finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
