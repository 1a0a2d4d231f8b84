import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, createDb, dropDatabase, freePort, migrateDatabase, migrationNames } from '@frontdesk/db';
import { createBooking } from '@frontdesk/use-cases';
import { proBookingRequest } from '@frontdesk/use-cases/testing';
import { job, makePro } from '@frontdesk/dev-env/factories';
import { TEST_KEY_ENCRYPTION_KEY, cli, startService } from './helpers';

// Processes start and answer slower on a busy machine: limits that fit the work, and every wait is on readiness.
jest.setTimeout(120_000);

// The forms ops and deployment scripts use: the CLI, and each service started on its own.
const admin = () => process.env.FD_TEST_ADMIN_URL!;
let name: string;
let url: string;
beforeAll(async () => {
  name = `fd_e2e_${randomBytes(4).toString('hex')}`;
  url = await createDatabase(admin(), name); // empty: no schema until `pnpm cli migrate`
});
afterAll(() => dropDatabase(admin(), name));

describe('the ops CLI', () => {
  it('migrates, creates a pro (key printed once, as JSON) and rotates its key', () => {
    const env = { DATABASE_URL: url };
    const before = cli(['pro', 'create', '--name', 'Early', '--timezone', 'UTC', '--zips', '10001'], env);
    expect(before.status).toBe(1);
    expect(before.stderr).toMatch(/run "pnpm cli migrate" first/);

    const migrated = cli(['migrate', '--json'], env);
    expect(migrated.status).toBe(0);
    // Every migration the package ships, in order (packages/db/test/schema.test.ts pins the list itself).
    expect(JSON.parse(migrated.stdout)).toEqual({ applied: migrationNames() });

    const created = cli(['pro', 'create', '--name', 'Bright Homes', '--timezone', 'America/Chicago', '--zips', '60601,60602', '--json'], env);
    expect(created.status).toBe(0);
    const pro = JSON.parse(created.stdout);
    expect(pro).toMatchObject({ name: 'Bright Homes', timezone: 'America/Chicago', service_zips: ['60601', '60602'] });
    expect(pro.pro_id).toMatch(/^pro_/);
    expect(pro.api_key).toMatch(/^fdk_[A-Za-z0-9]{32}$/);

    const rotated = cli(['pro', 'rotate-key', '--pro', pro.pro_id, '--json'], env);
    expect(rotated.status).toBe(0);
    expect(JSON.parse(rotated.stdout).api_key).not.toBe(pro.api_key);

    expect(cli(['pro', 'create', '--name', 'X', '--timezone', 'Mars/Base', '--zips', '10001'], env).stderr).toMatch(/not an IANA time zone/);
    expect(cli(['pro', 'create', '--name', 'X'], env).status).toBe(2);
    expect(cli(['pro', 'rotate-key', '--pro', 'pro_nobody'], env).status).toBe(1);
    const rotated2 = cli(['oauth', 'rotate-key', '--json'], env);
    expect(rotated2.status).toBe(0);
    expect(JSON.parse(rotated2.stdout).kid).toMatch(/^[0-9a-f-]{36}$/);
    const help = cli(['--help'], env);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/pnpm cli pro create --name <name> --timezone <IANA zone> --zips <zip,zip>/);
  });
});

describe("the ops CLI on a business's settings", () => {
  it('sets prices, hours and ZIPs with the checks of update_business, and adds, lists and removes time off', () => {
    const env = { DATABASE_URL: url };
    cli(['migrate'], env);
    const { pro_id: pro } = JSON.parse(cli(['pro', 'create', '--name', 'Set Me', '--timezone', 'America/New_York', '--zips', '10001', '--json'], env).stdout);
    const set = cli(
      [
        'pro',
        'set',
        '--pro',
        pro,
        '--price',
        'base=80',
        '--price',
        'first_visit=full_price',
        '--discount',
        'weekly=25',
        '--hours',
        'sat=closed',
        '--hours',
        'sunday=10:00-12:00,13:00-15:00',
        '--zips',
        '10001,10002',
        '--phone',
        '(212) 555-0100',
        '--min-notice-hours',
        '24',
        '--json',
      ],
      env,
    );
    expect(set.stderr).toBe('');
    expect(JSON.parse(set.stdout)).toMatchObject({
      pro_id: pro,
      phone: '(212) 555-0100',
      service_zips: ['10001', '10002'],
      prices: { base: 80, first_visit: 'full_price', frequency_discounts_pct: { weekly: 25 } },
      working_hours: { saturday: [], sunday: ['10:00-12:00', '13:00-15:00'] },
      min_notice_hours: 24,
      affected_jobs: [],
    });
    const addOns = cli(['pro', 'set', '--pro', pro, '--change', '{"add_ons":[{"name":"balcony","label":"Balcony","price":15,"minutes":20}]}', '--json'], env);
    expect(JSON.parse(addOns.stdout).add_ons).toEqual([{ name: 'balcony', label: 'Balcony', price: 15, minutes: 20 }]);
    // The same refusals as the API, and nothing written.
    const bad = cli(['pro', 'set', '--pro', pro, '--price', 'base=20000', '--hours', 'mon=17:00-08:00'], env);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/prices\.base must be at most 10000/);
    expect(cli(['pro', 'set', '--pro', pro, '--hours', 'mon=17:00-08:00'], env).stderr).toMatch(
      /working_hours\.monday: "17:00-08:00" must end after it starts/,
    );
    expect(cli(['pro', 'set', '--pro', pro, '--price', 'base=lots'], env).status).toBe(2);
    expect(cli(['pro', 'set', '--pro', 'pro_nobody', '--price', 'base=70'], env).stderr).toMatch(/No business with id pro_nobody/);

    const added = cli(['pro', 'time-off', 'add', '--pro', pro, '--start', '2099-12-24', '--end', '2099-12-26', '--note', 'Holidays', '--json'], env);
    const off = JSON.parse(added.stdout);
    expect(off).toMatchObject({ start: '2099-12-24T00:00:00-05:00', end: '2099-12-27T00:00:00-05:00', note: 'Holidays', affected_jobs: [] });
    const listed = cli(['pro', 'time-off', 'list', '--pro', pro], env);
    expect(listed.stdout).toContain(off.time_off_id);
    expect(cli(['pro', 'time-off', 'add', '--pro', pro, '--start', '2099-12-26', '--end', '2099-12-24'], env).stderr).toMatch(/end must be after start/);
    expect(JSON.parse(cli(['pro', 'time-off', 'remove', '--pro', pro, '--id', off.time_off_id, '--json'], env).stdout)).toMatchObject({ removed: true });
    expect(cli(['pro', 'time-off', 'list', '--pro', pro], env).stdout).toMatch(/no upcoming time off/);
    expect(cli(['pro', 'time-off', 'remove', '--pro', pro, '--id', off.time_off_id], env).status).toBe(1);
  });
});

describe('each service on its own', () => {
  it('starts pro-desk with DATABASE_URL, serves a key holder, and stops cleanly on SIGTERM', async () => {
    const env = { DATABASE_URL: url };
    cli(['migrate'], env);
    const { api_key: key } = JSON.parse(cli(['pro', 'create', '--name', 'Solo', '--timezone', 'UTC', '--zips', '10001', '--json'], env).stdout);
    const port = await freePort();
    const svc = await startService('services/pro-desk/src/main.ts', { DATABASE_URL: url, PRO_DESK_PORT: String(port) }, `http://127.0.0.1:${port}/readyz`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/quote_job?bedrooms=1&bathrooms=1`, { headers: { Authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { total: number }).total).toBe(120);
      const doc = (await (await fetch(`http://127.0.0.1:${port}/openapi.json`)).json()) as { servers: { url: string }[] };
      expect(doc.servers[0]?.url).toBe(`http://localhost:${port}`);
    } finally {
      expect(await svc.stop()).toBe(0);
    }
  });

  it('starts booking with DATABASE_URL and answers its health checks', async () => {
    const port = await freePort();
    const svc = await startService('services/booking/src/main.ts', { DATABASE_URL: url, BOOKING_PORT: String(port) }, `http://127.0.0.1:${port}/readyz`);
    try {
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      expect(await svc.stop()).toBe(0);
    }
  });

  it.each([
    ['pro-desk', 'PRO_DESK_PORT'],
    ['booking', 'BOOKING_PORT'],
  ])('starts its workers from %s main: series horizons roll forward on every replica of both hosts', async (name, portVar) => {
    await migrateDatabase(url);
    const db = createDb(url, { maxConnections: 1 });
    try {
      // A weekly series booked two months ago: its horizon is two months behind today's.
      const DAY = 86_400_000;
      const then = new Date(Date.now() - 60 * DAY);
      const start = new Date(Math.floor(then.getTime() / DAY) * DAY + 7 * DAY + 15 * 3600_000);
      const { pro } = await makePro(db);
      const { series } = await createBooking(db, proBookingRequest(pro.id, start, then, { job: job({ frequency: 'weekly' }) }));
      const planned = async () =>
        (await db.selectFrom('series').select('planned_through').where('id', '=', series!.id).executeTakeFirstOrThrow()).planned_through;
      const before = await planned();
      const port = await freePort();
      const svc = await startService(`services/${name}/src/main.ts`, { DATABASE_URL: url, [portVar]: String(port) }, `http://127.0.0.1:${port}/readyz`);
      try {
        const deadline = Date.now() + 30_000;
        while ((await planned()) === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        expect((await planned()) > before).toBe(true);
      } finally {
        expect(await svc.stop()).toBe(0);
      }
    } finally {
      await db.destroy();
    }
  });

  it('reads its secrets from files, as compose secrets hand them over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fd-secrets-'));
    const file = (name: string, value: string) => {
      writeFileSync(join(dir, name), `${value}\n`);
      return join(dir, name);
    };
    const port = await freePort();
    // The password travels in its own file, as the database image's secret does; the
    // address keeps none. Where the test database trusts every password, any value serves.
    const address = new URL(url);
    const password = decodeURIComponent(address.password) || 'the-password-of-the-database-image';
    address.password = '';
    const env = {
      DATABASE_URL: '',
      DATABASE_URL_FILE: file('database-url', address.toString()),
      DATABASE_PASSWORD_FILE: file('database-password', password),
      KEY_ENCRYPTION_KEY: '',
      KEY_ENCRYPTION_KEY_FILE: file('key-encryption-key', TEST_KEY_ENCRYPTION_KEY),
      BOOKING_PORT: String(port),
    };
    const svc = await startService('services/booking/src/main.ts', env, `http://127.0.0.1:${port}/readyz`);
    expect(await svc.stop()).toBe(0);
    // Both forms of one secret at once is a mistake the service names.
    const { spawnSync } = await import('node:child_process');
    const both = { ...process.env, ...env, KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY };
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'services/booking/src/main.ts'], { cwd: `${__dirname}/..`, env: both, encoding: 'utf8' });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/KEY_ENCRYPTION_KEY and KEY_ENCRYPTION_KEY_FILE are both set/);
  });

  it('refuses to start without DATABASE_URL, naming the variable', async () => {
    const env = { ...process.env, DATABASE_URL: '' };
    const { spawnSync } = await import('node:child_process');
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'services/pro-desk/src/main.ts'], { cwd: `${__dirname}/..`, env, encoding: 'utf8' });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/DATABASE_URL must be set/);
  });

  it.each(['pro-desk', 'booking'])('refuses to start %s without KEY_ENCRYPTION_KEY, naming the variable', async (name) => {
    const env = { ...process.env, DATABASE_URL: url, KEY_ENCRYPTION_KEY: '' };
    const { spawnSync } = await import('node:child_process');
    const res = spawnSync(process.execPath, ['--import', 'tsx', `services/${name}/src/main.ts`], { cwd: `${__dirname}/..`, env, encoding: 'utf8' });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/KEY_ENCRYPTION_KEY must be set: it seals the OAuth signing keys/);
  });
});
