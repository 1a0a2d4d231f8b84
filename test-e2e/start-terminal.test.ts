import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createDatabase, dropDatabase, freePort } from '@frontdesk/db';
import { ROOT } from './helpers';

// `pnpm start` in a terminal: Ctrl+C sends SIGINT to the whole foreground process group (pnpm,
// tsx and node alike), not to one process; sign-in codes are read off the same terminal.
jest.setTimeout(180_000);

const RULE = '='.repeat(72);

describe('pnpm start in a terminal', () => {
  let name: string;
  let url: string;
  beforeAll(async () => {
    name = `fd_term_${randomBytes(4).toString('hex')}`;
    url = await createDatabase(process.env.FD_TEST_ADMIN_URL!, name);
  });
  afterAll(() => dropDatabase(process.env.FD_TEST_ADMIN_URL!, name));

  it('prints a mailed code on lines of its own, apart from the JSON logs, and Ctrl+C ends it with exit code 0 and no ELIFECYCLE', async () => {
    const [proPort, bookPort] = [await freePort(), await freePort()];
    // detached: its own process group, as a shell gives a foreground job; the group gets the signal.
    const child = spawn('pnpm', ['start'], {
      cwd: ROOT,
      detached: true,
      env: { ...process.env, LOG_LEVEL: 'info', DATABASE_URL: url, PRO_DESK_PORT: String(proPort), BOOKING_PORT: String(bookPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
    const until = async (what: () => boolean, label: string) => {
      const deadline = Date.now() + 150_000;
      while (!what()) {
        if (child.exitCode !== null) throw new Error(`pnpm start exited early: ${out}`);
        if (Date.now() > deadline) throw new Error(`no ${label}: ${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    try {
      await until(() => out.includes('Front Desk is running.'), 'start');
      const email = `terminal.${Date.now()}@example.com`;
      const asked = await fetch(`http://127.0.0.1:${proPort}/key/api/code`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      expect(asked.status).toBe(202);
      await until(() => new RegExp(`Mail to ${email}[\\s\\S]*?\\n${RULE}\\n`).test(out), 'mail printed');

      const lines = out.split('\n');
      const at = lines.findIndex((l) => l.startsWith(`Mail to ${email}`));
      expect(lines[at - 2]).toBe('');
      expect(lines[at - 1]).toBe(RULE);
      const code = /^Subject: Your Front Desk code: (\d{6})$/.exec(lines[at + 1]!)?.[1];
      expect(code).toMatch(/^\d{6}$/);
      const end = lines.indexOf(RULE, at);
      expect(lines[end + 1]).toBe('');
      // The code appears in no JSON log line, and nothing of a log line is inside the block.
      expect(lines.filter((l) => l.startsWith('{') && l.includes(code!))).toEqual([]);
      expect(lines.slice(at, end).filter((l) => l.startsWith('{'))).toEqual([]);
    } finally {
      // Ctrl+C on a busy machine: the service process is slow to answer (stopped for a moment
      // here). Nothing may kill it mid-shutdown for that: it still stops in order and exits 0.
      const service = execFileSync('ps', ['-o', 'pid=,args=', '-g', String(child.pid)], { encoding: 'utf8' })
        .split('\n')
        .filter((l) => l.includes('--import') && l.includes('scripts/start.ts'))
        .map((l) => Number(l.trim().split(/\s+/)[0]));
      expect(service).toHaveLength(1);
      process.kill(service[0]!, 'SIGSTOP');
      process.kill(-child.pid!, 'SIGINT');
      await new Promise((r) => setTimeout(r, 300));
      process.kill(service[0]!, 'SIGCONT');
    }
    expect(await exited).toBe(0);
    expect(out).not.toMatch(/ELIFECYCLE|"level":5\d/);
    expect(out).toMatch(/"msg":"shutting down"/);
  });
});
