import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort } from '@frontdesk/db';
import { addDays, localDate, wallTimeOrNextInstant } from '@frontdesk/domain';

export const ROOT = resolve(__dirname, '..');

/** The key-encryption key spawned services get, as a deployment's environment would give them one. */
export const TEST_KEY_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

/** Runs `pnpm cli …` exactly as ops would, with the given environment. */
export function cli(args: string[], env: Record<string, string>) {
  const res = spawnSync('pnpm', ['-s', 'cli', ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

export interface RunningService {
  child: ChildProcess;
  output: () => string;
  stop(): Promise<number | null>;
}

/** One host as its own process on a free port, added to `running` (for the caller to stop); answers its API's base URL. */
export async function startHost(kind: 'pro-desk' | 'booking', env: Record<string, string>, running: RunningService[]): Promise<string> {
  const port = await freePort();
  const portVar = kind === 'pro-desk' ? 'PRO_DESK_PORT' : 'BOOKING_PORT';
  running.push(await startService(`services/${kind}/src/main.ts`, { ...env, [portVar]: String(port) }, `http://127.0.0.1:${port}/readyz`));
  return `http://127.0.0.1:${port}/api/v1`;
}

/** One API call with a bearer key: a GET, or a POST of `body` as JSON; answers the status and the parsed body. */
export async function callApi(
  url: string,
  key: string,
  body?: object,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(url, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** Polls `check` until it holds; past `ms`, fails naming what it waited for (a hang fails instead of passing). */
export async function waitFor(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Resolves once at least `ms` of today are left in `zone`, waiting until a few minutes into
 * the next day if fewer are (a test may put a job of today a minute or so before now). Hosts on
 * the real clock judge "today" when asked: a test that puts a job on today and reads it back
 * later would see it become yesterday's if midnight fell in between.
 */
export async function dayLeft(zone: string, ms: number): Promise<void> {
  const now = new Date();
  const left = wallTimeOrNextInstant(addDays(localDate(now, zone), 1), 0, zone).getTime() - now.getTime();
  if (left < ms) await new Promise((r) => setTimeout(r, left + 5 * 60_000));
}

/** Starts a service entry point as its own process and waits until its /readyz answers. */
export async function startService(entry: string, env: Record<string, string>, readyUrl: string): Promise<RunningService> {
  // A .js entry is the compiled build, run by plain node (workspace packages resolve to their dist/).
  const args = entry.endsWith('.js') ? ['--conditions=frontdesk-built', entry] : ['--import', 'tsx', entry];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited early: ${out}`);
    try {
      const res = await fetch(readyUrl);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${entry} did not become ready: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    output: () => out,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * A TCP proxy in front of PostgreSQL that can freeze: while frozen, bytes in both directions
 * are held back, as a hung server or a stalled network would hold them, and flow on thaw.
 */
export async function startFreezableProxy(target: { host: string; port: number }) {
  const { createServer, connect } = await import('node:net');
  let frozen = false;
  const held: Array<() => void> = [];
  const sockets = new Set<import('node:net').Socket>();
  const forward = (from: import('node:net').Socket, to: import('node:net').Socket) => {
    from.on('data', (chunk) => {
      const send = () => {
        if (!to.destroyed) to.write(chunk);
      };
      if (frozen) held.push(send);
      else send();
    });
    from.on('close', () => to.destroy());
    from.on('error', () => to.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  return {
    port: (server.address() as import('node:net').AddressInfo).port,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const send of held.splice(0)) send();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((res) => server.close(() => res()));
    },
  };
}

/** Every TypeScript source file under `dir`, built output and dependencies left out. */
export function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}
