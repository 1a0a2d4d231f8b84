import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChangeFeed, appendEvent, createDatabase, createDb, dropDatabase, migrateToLatest, type Db } from '@frontdesk/db';
import { DEFAULT_WEEKLY_HOURS } from '@frontdesk/domain';
import { createLogger } from '@frontdesk/http';
import { KeySealer } from '@frontdesk/oauth';
import { addWebhook, createBusiness, eventId } from '@frontdesk/use-cases';
import { startWorkers } from '@frontdesk/workers';
import { stats } from './host';

/**
 * Webhook delivery (issue 28), measured in this process with the workers as a host runs them:
 * - lag: 100 events a second over 100 businesses, each with one endpoint, from an event's
 *   commit to the receiver's acknowledgement; the floor is a commit followed by one direct
 *   POST to the same receiver, measured in the same run;
 * - scale: one event to each business once every business has 10 endpoints (1,000), one in ten
 *   of them down (connection refused, retried with backoff meanwhile), against the same burst
 *   with one healthy endpoint per business: deliveries a second, and their ratio.
 */
const BUSINESSES = 100;
const RATE = 100;
const SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 10);

class Receiver {
  readonly acked = new Map<string, number>();
  server!: Server;
  base = '';
  async start() {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        this.acked.set(`${req.url}|${String(req.headers['webhook-id'])}`, performance.now());
        res.end('ok');
      });
    });
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }
}

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((done) => s.listen(0, '127.0.0.1', done));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((done) => s.close(() => done()));
  return port;
}

async function writeEvent(db: Db, proId: string): Promise<{ id: string; at: number }> {
  const seq = await db.transaction().execute((trx) => appendEvent(trx, proId, { kind: 'booking.created', payload: { message: 'bench' }, at: new Date() }));
  return { id: eventId(proId, seq!), at: performance.now() };
}

async function waitFor(done: () => boolean, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('webhook bench: deliveries did not finish in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A burst of one event per business; answers deliveries a second to the healthy endpoints and their lag. */
async function burst(db: Db, receiver: Receiver, pros: string[], paths: string[]) {
  const t0 = performance.now();
  const written = await Promise.all(pros.map((p) => writeEvent(db, p)));
  const keys = written.flatMap((w, i) => paths.map((path) => ({ key: `/${pros[i]}${path}|${w.id}`, at: w.at })));
  await waitFor(() => keys.every((k) => receiver.acked.has(k.key)), 120);
  const seconds = (Math.max(...keys.map((k) => receiver.acked.get(k.key)!)) - t0) / 1000;
  return { deliveries: keys.length, per_second: Math.round(keys.length / seconds), lag_ms: stats(keys.map((k) => receiver.acked.get(k.key)! - k.at)) };
}

export async function webhookBench(adminUrl: string) {
  const name = `fd_bench_hooks_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(adminUrl, name);
  const db = createDb(url, { maxConnections: 12 });
  const receiver = await new Receiver().start();
  const sealer = new KeySealer(randomBytes(32));
  const changes = new ChangeFeed(url);
  const logger = createLogger('bench-webhooks', 'silent');
  let workers: { stop(): Promise<void> } | undefined;
  try {
    await migrateToLatest(db);
    const pros: string[] = [];
    for (let i = 0; i < BUSINESSES; i++) {
      const { pro } = await createBusiness(db, {
        name: `Hooked ${i}`,
        timezone: 'America/New_York',
        service_zips: ['10001'],
        weekly_hours: DEFAULT_WEEKLY_HOURS,
      });
      await addWebhook(db, pro.id, { url: `${receiver.base}/${pro.id}/0` }, { hostIsHttp: true, sealer, now: new Date() });
      pros.push(pro.id);
    }
    workers = startWorkers({
      db,
      changes,
      logger,
      clock: () => new Date(),
      mail: { from: 'bench@localhost', printLocally: false },
      webhooks: { sealer, allowLoopback: true },
    });
    await new Promise((r) => setTimeout(r, 1500)); // the change feed listening, the first ticks done

    // The floor: a commit, then one POST straight to the receiver.
    const floor: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await writeEvent(db, pros[0]!);
      await fetch(`${receiver.base}/floor`, { method: 'POST', body: '{}' }).then((r) => r.arrayBuffer());
      floor.push(performance.now() - t0);
    }
    await waitFor(() => receiver.acked.size >= 200, 60); // the floor's events reach pros[0]'s endpoint too

    // Steady load: RATE events a second, round-robin over the businesses.
    const written: { key: string; at: number }[] = [];
    const started = performance.now();
    for (let n = 0; n < RATE * SECONDS; n++) {
      const due = started + (n * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const pro = pros[n % BUSINESSES]!;
      void writeEvent(db, pro).then((w) => written.push({ key: `/${pro}/0|${w.id}`, at: w.at }));
    }
    await waitFor(() => written.length === RATE * SECONDS && written.every((w) => receiver.acked.has(w.key)), 120);
    const lag = stats(written.map((w) => receiver.acked.get(w.key)! - w.at));
    const floorStats = stats(floor);

    const one = await burst(db, receiver, pros, ['/0']);
    // Nine more endpoints per business: eight healthy, one down (connection refused).
    const down = await closedPort();
    for (const pro of pros) {
      for (let i = 1; i <= 8; i++) await addWebhook(db, pro, { url: `${receiver.base}/${pro}/${i}` }, { hostIsHttp: true, sealer, now: new Date() });
      await addWebhook(db, pro, { url: `http://127.0.0.1:${down}/${pro}` }, { hostIsHttp: true, sealer, now: new Date() });
    }
    const ten = await burst(db, receiver, pros, ['/0', '/1', '/2', '/3', '/4', '/5', '/6', '/7', '/8']);
    return {
      steady: {
        events_per_second: RATE,
        businesses: BUSINESSES,
        seconds: SECONDS,
        lag_ms: lag,
        floor_ms: floorStats,
        p50_vs_floor: round2(lag.p50 / floorStats.p50),
        p99_vs_floor: round2(lag.p99 / floorStats.p99),
      },
      scale: { one_endpoint_each: one, ten_endpoints_each_one_down: ten, rate_ratio: round2(ten.per_second / one.per_second) },
    };
  } finally {
    await workers?.stop();
    receiver.server.close();
    await db.destroy();
    await dropDatabase(adminUrl, name).catch(() => {});
  }
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The lines `pnpm bench` prints. */
export function webhookLines(r: Awaited<ReturnType<typeof webhookBench>>): string[] {
  const { steady, scale } = r;
  return [
    `Webhooks, ${steady.events_per_second} events/s over ${steady.businesses} businesses for ${steady.seconds} s: commit to receiver's ack p50/p99 ${steady.lag_ms.p50}/${steady.lag_ms.p99} ms,`,
    `  ${steady.p50_vs_floor}x/${steady.p99_vs_floor}x a commit plus one direct POST (${steady.floor_ms.p50}/${steady.floor_ms.p99} ms).`,
    `Webhook sender, one event per business: ${scale.one_endpoint_each.per_second} deliveries/s to ${scale.one_endpoint_each.deliveries} endpoints;`,
    `  with 1,000 endpoints, 10% down: ${scale.ten_endpoints_each_one_down.per_second} deliveries/s to the ${scale.ten_endpoints_each_one_down.deliveries} healthy ones (${scale.rate_ratio}x), lag p50/p99 ${scale.ten_endpoints_each_one_down.lag_ms.p50}/${scale.ten_endpoints_each_one_down.lag_ms.p99} ms.`,
  ];
}

if (require.main === module) {
  void (async () => {
    const { startTestServer } = await import('@frontdesk/db/testing');
    const server = await startTestServer();
    try {
      process.stdout.write(`${webhookLines(await webhookBench(server.adminUrl)).join('\n')}\n`);
    } finally {
      await server.stop();
    }
  })();
}
