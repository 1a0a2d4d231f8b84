import { createBusiness } from '@frontdesk/use-cases';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase, createDb, dropDatabase, freePort, migrateDatabase, type Db } from '@frontdesk/db';
import { DEFAULT_WEEKLY_HOURS } from '@frontdesk/domain';
import { startFreezableProxy, startService, waitFor, type RunningService } from './helpers';

// A database that drops connections or stops answering must never end a service process:
// calls in flight get a 503 that says to retry, and the service recovers on its own.
jest.setTimeout(120_000);

const admin = () => process.env.FD_TEST_ADMIN_URL!;
let name: string;
let url: string;
let db: Db;
let key: string;
let proId: string;
beforeAll(async () => {
  name = `fd_faults_${randomBytes(4).toString('hex')}`;
  url = await createDatabase(admin(), name);
  await migrateDatabase(url);
  db = createDb(url, { maxConnections: 2 });
  const created = await createBusiness(db, {
    name: 'Steady Cleaning',
    timezone: 'America/New_York',
    service_zips: ['10001'],
    weekly_hours: DEFAULT_WEEKLY_HOURS,
  });
  key = created.apiKey;
  proId = created.pro.id;
});
afterAll(async () => {
  await db.destroy();
  await dropDatabase(admin(), name);
});

const auth = () => ({ Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' });
/** A call that must be answered: a hang fails the test instead of passing by timing out. */
const call = (base: string, path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { ...init, headers: { ...auth(), ...(init.headers ?? {}) }, signal: AbortSignal.timeout(30_000) });

/** 10:00 in New York, one working day (Sundays are closed) after another, so no two collide. */
let day = 0;
function nextStart(): string {
  let d: Date;
  do d = new Date(Date.UTC(2030, 0, 7 + day++, 15, 0));
  while (d.getUTCDay() === 0);
  return d.toISOString();
}
const bookJob = (base: string, key?: string, start = nextStart()) =>
  call(base, '/api/v1/book_job', {
    method: 'POST',
    headers: key ? { 'Idempotency-Key': key } : {},
    body: JSON.stringify({
      bedrooms: 1,
      bathrooms: 1,
      start,
      customer_name: 'Ana',
      customer_phone: '212 555 0100',
      address: '1 Main St',
      zip: '10001',
    }),
  });

const backendsOf = async (client: pg.Client, app: string, state?: string) =>
  (
    await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2 ${state ? "AND wait_event_type = 'Lock'" : ''}`,
      [name, app],
    )
  ).rows.map((r) => r.pid);

describe('connections dropped by the database', () => {
  let svc: RunningService;
  let base: string;
  const control = () => new pg.Client({ connectionString: url });
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    svc = await startService('services/pro-desk/src/main.ts', { DATABASE_URL: url, PRO_DESK_PORT: String(port) }, `${base}/readyz`);
  });
  afterAll(async () => {
    expect(await svc.stop()).toBe(0);
  });

  it('answers calls whose connection was killed mid-query with 503, writes nothing for them, and keeps serving', async () => {
    const locker = control();
    const killer = control();
    await locker.connect();
    await killer.connect();
    try {
      // Hold the pro's row so every booking waits inside its transaction, on a checked-out connection.
      await locker.query('BEGIN');
      await locker.query('SELECT id FROM pros WHERE id = $1 FOR UPDATE', [proId]);
      const calls = Array.from({ length: 6 }, () => bookJob(base));
      await waitFor('the bookings to wait on the lock', async () => (await backendsOf(killer, 'pro-desk', 'waiting')).length >= 6);
      await killer.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [name, 'pro-desk']);
      const answers = await Promise.all(calls);
      await locker.query('ROLLBACK');
      for (const res of answers) {
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('2');
        expect(((await res.json()) as { error: string }).error).toMatch(/could not reach its database just now\. Try again in a few seconds/);
      }
      expect(svc.child.exitCode).toBeNull();
      expect(await db.selectFrom('bookings').select('id').where('pro_id', '=', proId).execute()).toEqual([]);

      const after = await bookJob(base);
      expect([after.status, await after.text()]).toEqual([200, expect.stringContaining('booking_id')]);
      expect((await call(base, '/readyz')).status).toBe(200);
    } finally {
      await locker.end();
      await killer.end();
    }
  });

  it('stays up while its connections are killed again and again under load', async () => {
    const killer = control();
    await killer.connect();
    try {
      let killing = true;
      const kills = (async () => {
        let rounds = 0;
        while (killing) {
          await killer.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [name, 'pro-desk']);
          rounds += 1;
          await new Promise((r) => setTimeout(r, 20));
        }
        return rounds;
      })();
      const statuses: number[] = [];
      const worker = async () => {
        for (let i = 0; i < 25; i += 1) {
          const res = await call(base, i % 2 ? '/api/v1/open_times?bedrooms=2&bathrooms=1&days=7' : '/api/v1/quote_job?bedrooms=2&bathrooms=1');
          statuses.push(res.status);
          const body = (await res.json()) as { error?: string };
          if (res.status !== 200) expect(body.error).toMatch(/Try again/);
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      killing = false;
      expect(await kills).toBeGreaterThan(3);
      expect(new Set(statuses)).toEqual(new Set(statuses.filter((s) => s === 200 || s === 503)));
      expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
      expect(svc.child.exitCode).toBeNull();
      expect(svc.output()).not.toMatch(/Unhandled 'error' event|"level":50/);
      await waitFor('a successful call after the kills', async () => (await call(base, '/api/v1/quote_job?bedrooms=2&bathrooms=1')).status === 200);
    } finally {
      await killer.end();
    }
  });
});

describe('a database that stops answering', () => {
  it('answers 503 within the timeouts, /readyz reports the outage, and all is well once it answers again', async () => {
    const target = new URL(admin());
    const proxy = await startFreezableProxy({ host: target.hostname, port: Number(target.port) });
    const viaProxy = new URL(url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const svc = await startService(
      'services/pro-desk/src/main.ts',
      { DATABASE_URL: viaProxy.toString(), PRO_DESK_PORT: String(port), DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '1000' },
      `${base}/readyz`,
    );
    try {
      expect((await call(base, '/api/v1/quote_job?bedrooms=2&bathrooms=1')).status).toBe(200);
      proxy.freeze();
      const ready = await call(base, '/readyz');
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { error: string }).error).toMatch(/database is not reachable/);
      const [quote, booked] = await Promise.all([call(base, '/api/v1/quote_job?bedrooms=2&bathrooms=1'), bookJob(base)]);
      for (const res of [quote, booked]) {
        expect(res.status).toBe(503);
        expect(((await res.json()) as { error: string }).error).toMatch(/Try again in a few seconds/);
      }
      proxy.thaw();
      await waitFor('/readyz to recover', async () => (await call(base, '/readyz')).status === 200);
      expect((await call(base, '/api/v1/quote_job?bedrooms=2&bathrooms=1')).status).toBe(200);
      expect(svc.child.exitCode).toBeNull();
    } finally {
      proxy.thaw();
      await svc.stop();
      await proxy.close();
    }
  });
});

/** A service of this file's database behind a proxy that can freeze, with its own settings. */
async function behindProxy(env: Record<string, string>) {
  const target = new URL(admin());
  const proxy = await startFreezableProxy({ host: target.hostname, port: Number(target.port) });
  const viaProxy = new URL(url);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const replica = async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const svc = await startService(
      'services/pro-desk/src/main.ts',
      { DATABASE_URL: viaProxy.toString(), PRO_DESK_PORT: String(port), ...env },
      `${base}/readyz`,
    );
    return { base, svc };
  };
  return { proxy, replica };
}

/** The answer and how long it took, in ms. */
async function timed(answer: Promise<Response>): Promise<{ res: Response; ms: number; body: string }> {
  const started = Date.now();
  const res = await answer;
  const body = await res.text();
  return { res, ms: Date.now() - started, body };
}

describe('the request deadline', () => {
  it('answers every request within REQUEST_DEADLINE_MS while the database is frozen, however long its own timeouts', async () => {
    // Database timeouts far beyond the deadline: only the deadline can answer in time.
    const { proxy, replica } = await behindProxy({
      DATABASE_CONNECT_TIMEOUT_MS: '20000',
      DATABASE_STATEMENT_TIMEOUT_MS: '20000',
      REQUEST_DEADLINE_MS: '3000',
    });
    const { base, svc } = await replica();
    try {
      expect((await call(base, '/api/v1/quote_job?bedrooms=2&bathrooms=1')).status).toBe(200);
      proxy.freeze();
      const key = `deadline-${randomBytes(4).toString('hex')}`;
      const start = nextStart();
      const mcp = call(base, '/mcp', {
        method: 'POST',
        headers: { Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'schedule', arguments: {} } }),
      });
      const page = fetch(`${base}/dashboard/code`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=owner%40example.com',
        redirect: 'manual',
        signal: AbortSignal.timeout(30_000),
      });
      // Calls that must reach the database (a quote or open times could come from what the process keeps).
      const answers = await Promise.all([timed(call(base, '/api/v1/schedule')), timed(bookJob(base, key, start)), timed(mcp), timed(page)]);
      for (const { res, ms, body } of answers) {
        expect({ status: res.status, retryAfter: res.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '2' });
        expect(ms).toBeGreaterThanOrEqual(2900);
        expect(ms).toBeLessThan(4500);
        expect(body).toContain('could not answer within 3 seconds');
        expect(body).toContain('Try again in a few seconds');
      }
      expect(answers[0].res.headers.get('content-type')).toMatch(/json/);
      expect(JSON.parse(answers[2].body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32603 } });
      expect(answers[3].res.headers.get('content-type')).toMatch(/text\/html/);
      proxy.thaw();
      // The write's key is usable within 5 s of the database's return: the same request books once.
      const thawed = Date.now();
      const tries: string[] = [];
      let retried: Response;
      do {
        retried = await bookJob(base, key, start);
        tries.push(`${retried.status} at ${Date.now() - thawed} ms: ${(await retried.clone().text()).slice(0, 120)}`);
      } while (retried.status === 503 && Date.now() - thawed < 5000);
      expect({ tries, status: retried.status, inTime: Date.now() - thawed < 5000 }).toEqual({ tries, status: 200, inTime: true });
      expect(svc.child.exitCode).toBeNull();
      expect(svc.output()).not.toMatch(/"level":50/);
    } finally {
      proxy.thaw();
      await svc.stop();
      await proxy.close();
    }
  });
});

describe('an idempotency key held by a request the outage failed', () => {
  it('is usable within 5 s of the database returning, on another replica and on its own', async () => {
    const { proxy, replica } = await behindProxy({ DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '1000' });
    const [a, b] = await Promise.all([replica(), replica()]);
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      // Hold the pro's row (directly, not through the proxy) so the keyed bookings take their
      // keys, then wait inside their transactions; then the database stops answering them.
      await locker.query('BEGIN');
      await locker.query('SELECT id FROM pros WHERE id = $1 FOR UPDATE', [proId]);
      const keys = [`outage-a-${randomBytes(4).toString('hex')}`, `outage-b-${randomBytes(4).toString('hex')}`];
      const starts = [nextStart(), nextStart()];
      const first = keys.map((key, i) => bookJob(a.base, key, starts[i]));
      await waitFor('both keys to be taken', async () => {
        const held = await db.selectFrom('idempotency_keys').select('key').where('key', 'in', keys).execute();
        return held.length === 2;
      });
      await new Promise((r) => setTimeout(r, 200));
      proxy.freeze();
      for (const res of await Promise.all(first)) expect(res.status).toBe(503);
      await locker.query('ROLLBACK');
      // The failed requests' releases could not reach the database: the keys are still taken.
      await new Promise((r) => setTimeout(r, 1500));
      expect(await db.selectFrom('idempotency_keys').select('key').where('key', 'in', keys).where('response', 'is', null).execute()).toHaveLength(2);

      proxy.thaw();
      const thawed = Date.now();
      // One retry at the other replica (it waits until replica A's release lands), one at replica A
      // itself (it knows its holder died and takes the key over at once).
      const retries = await Promise.all([bookJob(b.base, keys[0], starts[0]), bookJob(a.base, keys[1], starts[1])]);
      const took = Date.now() - thawed;
      expect(retries.map((r) => r.status)).toEqual([200, 200]);
      expect(took).toBeLessThan(5000);
      const bookings = await db
        .selectFrom('bookings')
        .select('starts_at')
        .where('pro_id', '=', proId)
        .where(
          'starts_at',
          'in',
          starts.map((s) => new Date(s)),
        )
        .execute();
      expect(bookings).toHaveLength(2);
      for (const r of [a, b]) expect(r.svc.child.exitCode).toBeNull();
    } finally {
      proxy.thaw();
      await locker.end().catch(() => {});
      await Promise.all([a.svc.stop(), b.svc.stop()]);
      await proxy.close();
    }
  });
});
