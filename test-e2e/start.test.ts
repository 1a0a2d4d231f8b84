import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createDatabase, createDb, dropDatabase, freePort, reachableDataDir } from '@frontdesk/db';
import { ROOT } from './helpers';

// `pnpm start` exactly as a newcomer runs it: the one process a signal is sent to must stop
// everything it started, in order, and a port in use must stop it before anything is written.
jest.setTimeout(180_000);

function pnpmStart(env: Record<string, string>) {
  const child = spawn('pnpm', ['start'], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  const running = async () => {
    const deadline = Date.now() + 150_000;
    while (!out.includes('Front Desk is running.')) {
      if (child.exitCode !== null) throw new Error(`pnpm start exited early: ${out}`);
      if (Date.now() > deadline) throw new Error(`pnpm start did not come up: ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { child, output: () => out, exited, running };
}

/** Resolves true when something accepts connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((res) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      res(true);
    });
    socket.once('error', () => res(false));
  });

describe('pnpm start', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'fd-start-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(join(reachableDataDir(join(dataDir, 'postgres')), '..'), { recursive: true, force: true }).catch(() => {});
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'migrates before any worker runs, and on %s stops the services, then PostgreSQL, with exit code 0',
    async (signal) => {
      const [pgPort, proPort, bookPort] = [await freePort(), await freePort(), await freePort()];
      const run = pnpmStart({ FRONT_DESK_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), PRO_DESK_PORT: String(proPort), BOOKING_PORT: String(bookPort) });
      await run.running();
      for (const port of [proPort, bookPort]) expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      expect(await listening(pgPort)).toBe(true);

      run.child.kill(signal);
      expect(await run.exited).toBe(0);
      for (const port of [proPort, bookPort, pgPort]) expect(await listening(port)).toBe(false);
      const output = run.output();
      expect(output).not.toMatch(/"level":5\d|ERR_|ELIFECYCLE|does not exist/);
      expect(output).toMatch(/"msg":"shutting down"/);
    },
  );

  it('reports a port in use before it writes anything to the database', async () => {
    const name = `fd_start_${randomBytes(4).toString('hex')}`;
    const url = await createDatabase(process.env.FD_TEST_ADMIN_URL!, name);
    const blocker = createServer();
    await new Promise<void>((res) => blocker.listen(0, '0.0.0.0', () => res()));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const run = pnpmStart({ DATABASE_URL: url, PRO_DESK_PORT: String(taken), BOOKING_PORT: String(await freePort()) });
      expect(await run.exited).not.toBe(0);
      expect(run.output()).toMatch(new RegExp(`Port ${taken} \\(PRO_DESK_PORT\\) is already in use`));
      const db = createDb(url, { maxConnections: 1 });
      const tables = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`.execute(db);
      await db.destroy();
      expect(tables.rows[0]!.n).toBe(0);
    } finally {
      blocker.close();
      await dropDatabase(process.env.FD_TEST_ADMIN_URL!, name);
    }
  });
});
