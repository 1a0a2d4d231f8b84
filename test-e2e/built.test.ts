import { createBusiness } from '@frontdesk/use-cases';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createDatabase, createDb, dropDatabase, freePort, migrationNames } from '@frontdesk/db';
import { startService, type RunningService } from './helpers';

// Production runs the compiled JavaScript of `pnpm build` with plain node: no transpiler.
// `pnpm test` builds before jest runs, so the output checked here is this commit's.
jest.setTimeout(120_000);

const ROOT = join(__dirname, '..');
const entries = { pro: 'services/pro-desk/dist/main.js', book: 'services/booking/dist/main.js' };
const admin = () => process.env.FD_TEST_ADMIN_URL!;
let name: string;
let url: string;
const running: RunningService[] = [];

beforeAll(async () => {
  name = `fd_built_${randomBytes(4).toString('hex')}`;
  url = await createDatabase(admin(), name);
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  await dropDatabase(admin(), name);
});

describe('the production build', () => {
  it('exists for both services (run pnpm build, as pnpm test does)', () => {
    expect([existsSync(join(ROOT, entries.pro)), existsSync(join(ROOT, entries.book))]).toEqual([true, true]);
  });

  it('starts both services with plain node; migrate, answer /readyz and serve the API', async () => {
    const proPort = await freePort();
    const bookPort = await freePort();
    // The migration compose runs before the services: compiled too.
    const migrate = spawnSync(process.execPath, ['--conditions=frontdesk-built', 'services/pro-desk/dist/migrate.js'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url },
      encoding: 'utf8',
    });
    expect([migrate.status, migrate.stderr]).toEqual([0, '']);
    expect((JSON.parse(migrate.stdout) as { applied: string[] }).applied).toEqual(migrationNames());
    const pro = await startService(entries.pro, { DATABASE_URL: url, PRO_DESK_PORT: String(proPort) }, `http://127.0.0.1:${proPort}/readyz`);
    running.push(pro);
    const book = await startService(entries.book, { DATABASE_URL: url, BOOKING_PORT: String(bookPort) }, `http://127.0.0.1:${bookPort}/readyz`);
    running.push(book);
    expect(await (await fetch(`http://127.0.0.1:${bookPort}/readyz`)).json()).toEqual({ status: 'ready' });

    const db = createDb(url, { maxConnections: 1 });
    try {
      const { apiKey } = await createBusiness(db, { name: 'Built Cleaning', timezone: 'America/New_York', service_zips: ['10001'] });
      const quote = await fetch(`http://127.0.0.1:${proPort}/api/v1/quote_job?bedrooms=2&bathrooms=1`, { headers: { Authorization: `Bearer ${apiKey}` } });
      expect(quote.status).toBe(200);
      expect(((await quote.json()) as { currency: string }).currency).toBe('USD');
      const found = await fetch(`http://127.0.0.1:${bookPort}/api/v1/find_cleaners?zip=10001&bedrooms=2&bathrooms=1`, {
        headers: { Authorization: 'Bearer fdpub_local_shared_key' },
      });
      expect(((await found.json()) as { count: number }).count).toBe(1);
    } finally {
      await db.destroy();
    }
  });
});
