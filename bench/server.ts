// First, as a host's main.ts imports its tracing.ts: the traced twin of the pro host.
import './tracing';
import express from 'express';
import { sql } from 'kysely';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { openServiceDb, rateLimitStore } from '@frontdesk/db';
import { createLogger, defaultRateLimits, hostLimits, opsListener, scaleRateLimits } from '@frontdesk/http';
import { startWorkers } from '@frontdesk/workers';
import { KeySealer } from '@frontdesk/oauth';
import { createProDeskApp, proKeyAuth } from '@frontdesk/pro-desk';
import { createBookingApp } from '@frontdesk/booking';

const METERED = '/metered/';

/**
 * One host under load, in a process of its own as in production (`pro` or `book` as the
 * argument). The pro host also answers GET /bare: the very same key check in front of a
 * bare JSON answer, the floor of any authenticated call; and every path under /metered/ is
 * the same app with Prometheus metrics on. Prints its port.
 */
async function main(): Promise<void> {
  const host = process.argv[2];
  const logger = createLogger(`bench-${host}`, process.env.LOG_LEVEL ?? 'warn');
  // DATABASE_READ_URL as a host reads it: searches go to those replicas (the replica case).
  const readUrls = (process.env.DATABASE_READ_URL ?? '').split(',').filter((u) => u !== '');
  const { db, changes, gauges, close } = openServiceDb({ applicationName: `bench-${host}`, database: { url: process.env.DATABASE_URL!, readUrls }, logger });
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
    // Diagnostic, not a case of the issue: the least a write call can cost here, over HTTP with
    // no middleware: one transaction of one statement (BEGIN carried with it, then COMMIT) and the
    // change-feed fence every write call waits for. Two of them are the floor of the hold pair.
    bare.get('/bare/empty-write', async (_req, res) => {
      await db.transaction().execute((trx) => sql`SELECT ${1}::int`.execute(trx));
      await changes.fence();
      res.json({ ok: true });
    });
    service = createBookingApp(ctx).app;
  }
  // The same app with metrics on, as runHost serves it with METRICS_TOKEN set, under /metered/:
  // one process, one set of caches, so a case and its metered twin differ by the metrics alone.
  const metered = opsListener(
    service,
    { metrics: { token: 'bench-metrics-token', port: null }, drainDelayMs: 0 },
    { service: host!, ...gauges, heartbeats: workers.heartbeats },
  );
  const profiler = new Session();
  profiler.connect();
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/bare')) return bare(req, res);
    // The bench's own profiler: POST /bench/profile starts a CPU profile, DELETE /bench/profile?to=<file> writes it there.
    if (req.url?.startsWith('/bench/profile'))
      return void profile(profiler, req.method!, new URL(req.url, 'http://bench').searchParams.get('to')).then(() => res.end());
    if (req.url?.startsWith(METERED)) {
      req.url = req.url.slice(METERED.length - 1);
      return metered.listener(req, res);
    }
    return service(req, res);
  });
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

/** Starts (POST) or stops and writes (DELETE, to `to`) a CPU profile of this process, for one case's window. */
async function profile(session: Session, method: string, to: string | null): Promise<void> {
  if (method === 'POST') {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  } else if (to) {
    const { profile: taken } = await session.post('Profiler.stop');
    writeFileSync(to, JSON.stringify(taken));
  }
}

void main();
