import { randomBytes } from 'node:crypto';
import pg from 'pg';
import parsePrometheus, { type Family } from 'parse-prometheus-text-format';
import { createBusiness } from '@frontdesk/use-cases';
import { DEFAULT_WEEKLY_HOURS } from '@frontdesk/domain';
import { createDatabase, createDb, dropDatabase, enqueueMail, freePort, migrateDatabase, migrateDown, migrateToLatest, type Db } from '@frontdesk/db';
import { startService, waitFor, type RunningService } from './helpers';

// What the people who run Front Desk see of it: /metrics (Prometheus text, behind a token or
// on a port of its own) and /readyz (the database, the schema, and draining after SIGTERM),
// on real host processes over a database of this file's own.
jest.setTimeout(180_000);

const admin = () => process.env.FD_TEST_ADMIN_URL!;
const METRICS_TOKEN = `metrics-${randomBytes(12).toString('hex')}`;
let name: string;
let url: string;
let db: Db;
let key: string;
let proId: string;
let adminClient: pg.Client;
beforeAll(async () => {
  name = `fd_ops_${randomBytes(4).toString('hex')}`;
  url = await createDatabase(admin(), name);
  await migrateDatabase(url);
  db = createDb(url, { maxConnections: 2 });
  const created = await createBusiness(db, {
    name: 'Watched Cleaning',
    timezone: 'America/New_York',
    service_zips: ['10001'],
    weekly_hours: DEFAULT_WEEKLY_HOURS,
  });
  key = created.apiKey;
  proId = created.pro.id;
  adminClient = new pg.Client({ connectionString: admin() });
  await adminClient.connect();
});
afterAll(async () => {
  await db.destroy();
  await adminClient.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
  await adminClient.end();
  await dropDatabase(admin(), name);
});

/** A pro-desk process over this file's database with `env` besides; answers its base URL. */
async function proDesk(env: Record<string, string>, running: RunningService[]): Promise<string> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  running.push(await startService('services/pro-desk/src/main.ts', { DATABASE_URL: url, PRO_DESK_PORT: String(port), ...env }, `${base}/readyz`));
  return base;
}

const api = (base: string, path: string, body?: object, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/v1/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(60_000),
  });

let day = 0;
/** 10:00 in New York on a weekday, a different one each time. */
function nextStart(): string {
  let d: Date;
  do d = new Date(Date.UTC(2031, 2, 3 + day++, 15, 0));
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6);
  return d.toISOString();
}
const booking = () => ({
  bedrooms: 1,
  bathrooms: 1,
  start: nextStart(),
  customer_name: 'Ana Pereira',
  customer_phone: '212 555 0100',
  customer_email: 'ana.pereira@example.com',
  address: '1 Main St',
  zip: '10001',
});

async function scrape(url: string, token: string | null = METRICS_TOKEN): Promise<Family[]> {
  const res = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await res.text());
}

const family = (families: Family[], name: string) => families.find((f) => f.name === name);
/** The sum of a counter's or gauge's samples whose labels include `labels`. */
function total(families: Family[], name: string, labels: Record<string, string> = {}): number {
  const samples = family(families, name)?.metrics ?? [];
  return samples.filter((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v)).reduce((n, s) => n + Number(s.value ?? s.count), 0);
}

describe('/metrics', () => {
  const running: RunningService[] = [];
  afterAll(async () => {
    for (const r of running) await r.stop();
  });

  it('is refused without the token, parses as Prometheus text, moves after a booking, and no label names a record or a person', async () => {
    const base = await proDesk({ METRICS_TOKEN, REQUEST_DEADLINE_MS: '30000', DATABASE_STATEMENT_TIMEOUT_MS: '30000' }, running);
    for (const token of [null, 'metrics-not-the-token-at-all']) {
      const refused = await fetch(`${base}/metrics`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await refused.text()).not.toMatch(/frontdesk_/);
    }

    const before = await scrape(`${base}/metrics`);
    const booked = await api(base, 'book_job', booking(), { 'Idempotency-Key': 'ops-metrics-1' });
    expect(booked.status).toBe(200);
    const body = booking();
    const idem = { 'Idempotency-Key': 'ops-metrics-2' };
    expect((await api(base, 'book_job', body, idem)).status).toBe(200);
    const replayed = await api(base, 'book_job', body, idem);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    const { booking_id: bookingId } = (await booked.json()) as { booking_id: string };
    expect(bookingId).toMatch(/^bk_/);
    await enqueueMail(db, { to: 'owner@example.com', subject: 'Waiting', text: 'Waits in the outbox.', now: new Date() });
    expect((await api(base, 'quote_job?bedrooms=2&bathrooms=1')).status).toBe(200);
    expect((await api(base, 'no_such_operation')).status).toBe(404);
    expect((await fetch(`${base}/api/v1/quote_job?bedrooms=2&bathrooms=1`)).status).toBe(401);
    // A page with an id in its path: its label must be the route pattern or none, never the path.
    await fetch(`${base}/dashboard/jobs/${bookingId}`, { redirect: 'manual' });
    const after = await scrape(`${base}/metrics`);

    const rest = { operation: 'book_job', transport: 'rest', status: '200' };
    expect(total(after, 'frontdesk_http_requests_total', rest) - total(before, 'frontdesk_http_requests_total', rest)).toBe(3);
    // The parser folds a labelled histogram's series into one set of buckets (it predates
    // labelled histograms being common), so its counts are checked through the counter above.
    const latency = family(after, 'frontdesk_http_request_duration_seconds');
    expect(latency?.type).toBe('HISTOGRAM');
    expect(Object.keys(latency!.metrics[0]!.buckets!)).toEqual(expect.arrayContaining(['0.005', '1', '30', '+Inf']));
    expect(total(after, 'frontdesk_idempotency_replays_total', { operation: 'book_job' })).toBe(1);
    expect(total(after, 'frontdesk_http_requests_total', { operation: 'quote_job', transport: 'rest', status: '200' })).toBe(1);
    expect(total(after, 'frontdesk_http_requests_total', { operation: 'none', transport: 'rest', status: '401' })).toBe(1);
    // A mail waits in the outbox: without SMTP_URL no worker of this host sends it.
    expect(total(after, 'frontdesk_outbox_pending')).toBeGreaterThan(total(before, 'frontdesk_outbox_pending'));
    expect(total(after, 'frontdesk_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(family(after, 'frontdesk_outbox_oldest_age_seconds')?.type).toBe('GAUGE');
    expect(family(after, 'frontdesk_webhook_delivery_lag_seconds')?.type).toBe('GAUGE');
    expect(
      total(after, 'frontdesk_db_pool_connections', { state: 'idle' }) + total(after, 'frontdesk_db_pool_connections', { state: 'in_use' }),
    ).toBeGreaterThan(0);
    expect(family(after, 'frontdesk_db_pool_waiting')?.metrics).toHaveLength(1);
    const beats = family(after, 'frontdesk_worker_last_run_timestamp_seconds')!.metrics;
    expect(beats.map((m) => m.labels?.worker)).toEqual(expect.arrayContaining(['purge', 'series', 'agenda']));
    for (const b of beats) expect(Number(b.value)).toBeGreaterThan(Date.UTC(2026, 0, 1) / 1000);
    expect(total(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(total(after, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);

    // Bounded labels: no id, key, email, digits run or path with more than a pattern in it.
    const values = after.flatMap((f) => f.metrics.flatMap((m) => Object.values(m.labels ?? {})));
    expect(values.length).toBeGreaterThan(20);
    for (const v of values) {
      expect(v).not.toContain(bookingId);
      expect(v).not.toContain(proId);
      expect(v).not.toContain(key);
      expect(v).not.toMatch(/@|ops-metrics|\b[a-z]+_[0-9a-z]{14}\b/);
    }
    const operations = new Set(family(after, 'frontdesk_http_requests_total')!.metrics.map((m) => m.labels!.operation));
    for (const op of operations) expect(op).toMatch(/^(none|[a-z_]+|(\/[a-z_.-]*|\/:[a-z_]+)+)$/i);
  });

  it('on METRICS_PORT: served there alone, not on the public port', async () => {
    const metricsPort = await freePort();
    const base = await proDesk({ METRICS_PORT: String(metricsPort) }, running);
    const onPublic = await fetch(`${base}/metrics`);
    expect(onPublic.status).toBe(404);
    expect(await onPublic.text()).not.toMatch(/frontdesk_/);
    const families = await scrape(`http://127.0.0.1:${metricsPort}/metrics`, null);
    expect(family(families, 'frontdesk_http_requests_total')?.type).toBe('COUNTER');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/api/v1/quote_job`)).status).toBe(404);
  });
});

describe('/readyz', () => {
  it('answers 503 while the database refuses connections or its schema is behind the code, /healthz 200 throughout', async () => {
    const running: RunningService[] = [];
    const base = await proDesk({ DATABASE_CONNECT_TIMEOUT_MS: '1000' }, running);
    try {
      await adminClient.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await adminClient.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      const away = await fetch(`${base}/readyz`);
      expect(away.status).toBe(503);
      expect(((await away.json()) as { error: string }).error).toMatch(/database is not reachable/);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      await adminClient.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await waitFor('/readyz once the database takes connections again', async () => (await fetch(`${base}/readyz`)).status === 200);

      // The schema one migration behind this code (as when new code starts before its migration ran).
      const [reverted] = await migrateDown(db);
      expect(reverted).toBeDefined();
      const behind = await fetch(`${base}/readyz`);
      expect(behind.status).toBe(503);
      expect(((await behind.json()) as { error: string }).error).toMatch(/schema is behind this version \(1 migration to apply\)/);
      await migrateToLatest(db);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
    } finally {
      await adminClient.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await migrateToLatest(db);
      for (const r of running) await r.stop();
    }
  });

  it('answers 503 while draining after SIGTERM, keeps serving until the port closes, and answers a request in flight before exiting 0', async () => {
    const running: RunningService[] = [];
    const base = await proDesk({ DRAIN_DELAY_MS: '3000', DATABASE_STATEMENT_TIMEOUT_MS: '60000', REQUEST_DEADLINE_MS: '60000' }, running);
    const [svc] = running;
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      // A booking held on a lock: in flight until this transaction ends.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE bookings IN ACCESS EXCLUSIVE MODE');
      const inFlight = api(base, 'book_job', booking());
      await waitFor(
        'the booking to wait on the lock',
        async () =>
          (
            await locker.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'pro-desk' AND wait_event_type = 'Lock'",
              [name],
            )
          ).rows[0]!.n > 0,
      );
      const exited = new Promise<number | null>((resolve) => svc!.child.once('exit', (code) => resolve(code)));
      svc!.child.kill('SIGTERM');
      await waitFor('/readyz to say draining', async () => (await fetch(`${base}/readyz`)).status === 503);
      const draining = await fetch(`${base}/readyz`);
      expect(((await draining.json()) as { error: string }).error).toMatch(/shutting down/);
      // Still alive, still serving what reaches it.
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await api(base, 'quote_job?bedrooms=2&bathrooms=1')).status).toBe(200);
      // Then the port closes while the booking is still in flight, and the process waits for it.
      await waitFor('the port to close', () =>
        fetch(`${base}/healthz`).then(
          () => false,
          () => true,
        ),
      );
      expect(svc!.child.exitCode).toBeNull();
      await locker.query('COMMIT');
      const answered = await inFlight;
      expect(answered.status).toBe(200);
      expect(((await answered.json()) as { status: string }).status).toBe('booked');
      // The output, when the exit is not clean, says why.
      expect({ code: await exited, output: svc!.output() }).toEqual({ code: 0, output: expect.any(String) });
    } finally {
      await locker.end().catch(() => undefined);
      if (svc!.child.exitCode === null) await svc!.stop();
    }
  });
});
