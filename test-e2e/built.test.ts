import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parse } from 'yaml';
import { createDatabase, dropDatabase, freePort, migrationNames } from '@frontdesk/db';
import { startService, type RunningService } from './helpers';

// Production runs the compiled JavaScript of `pnpm build` with plain node: no transpiler.
// `pnpm test` builds before jest runs, so the output checked here is this commit's.
jest.setTimeout(120_000);

const ROOT = join(__dirname, '..');
const entries = { pro: 'services/pro-desk/dist/main.js', book: 'services/booking/dist/main.js', cli: 'scripts/dist/cli.js' };
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
  it('exists for both services and the ops CLI (run pnpm build, as pnpm test does)', () => {
    expect([existsSync(join(ROOT, entries.pro)), existsSync(join(ROOT, entries.book)), existsSync(join(ROOT, entries.cli))]).toEqual([true, true, true]);
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

    // The business an operator creates as the compose file's header says, with the CLI compose runs.
    const { apiKey } = createBusinessAsComposeSays(url);
    const quote = await fetch(`http://127.0.0.1:${proPort}/api/v1/quote_job?bedrooms=2&bathrooms=1`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(quote.status).toBe(200);
    expect(((await quote.json()) as { currency: string }).currency).toBe('USD');
    const found = await fetch(`http://127.0.0.1:${bookPort}/api/v1/find_cleaners?zip=10001&bedrooms=2&bathrooms=1`, {
      headers: { Authorization: 'Bearer fdpub_local_shared_key' },
    });
    expect(((await found.json()) as { count: number }).count).toBe(1);
  });
});

/**
 * Runs the header's `docker compose run --rm cli pro create …` as the container would: the cli
 * service's entrypoint (plain node on the compiled CLI) with the header's arguments.
 */
function createBusinessAsComposeSays(databaseUrl: string): { apiKey: string } {
  const text = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
  const entrypoint = (parse(text, { merge: true }) as { services: { cli: { entrypoint: string[] } } }).services.cli.entrypoint;
  const line = /docker compose run --rm cli (pro create .*)$/m.exec(text)![1]!;
  const args = line.match(/"[^"]*"|\S+/g)!.map((a) => a.replace(/^"(.*)"$/, '$1'));
  expect(entrypoint.slice(0, 2)).toEqual(['node', '--conditions=frontdesk-built']);
  const run = spawnSync(process.execPath, [...entrypoint.slice(1), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
  });
  expect([run.status, run.stderr]).toEqual([0, '']);
  expect(run.stdout).toMatch(/^Created .+ \(pro_\w+\)\./);
  return { apiKey: /API key \(shown once, store it now\): (fdk_\w+)/.exec(run.stdout)![1]! };
}
