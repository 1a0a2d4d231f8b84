import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * One host (bench/server.ts) in a process of its own, running the built packages as
 * production does (`pnpm bench` builds first; only server.ts is transpiled). Resolves
 * with its base URL once it listens.
 */
export function startHost(
  host: 'pro' | 'book',
  url: string,
  publicKey: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; base: string }> {
  // BENCH_CPU_PROF=<folder>: each host writes a CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_CPU_PROF)}`] : [];
  const child = spawn(process.execPath, [...profile, '--conditions=frontdesk-built', '--import', 'tsx', resolve(__dirname, 'server.ts'), host], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', PUBLIC_SHARED_KEY: publicKey, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((res, rej) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
      const port = /"bench_port":(\d+)/.exec(out)?.[1];
      if (port) res({ child, base: `http://127.0.0.1:${port}` });
    });
    child.once('exit', () => rej(new Error(`bench ${host} server exited: ${out}`)));
  });
}

/** Median, p99 and max of a list of milliseconds, to a tenth. */
export function stats(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const q = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! * 10) / 10;
  return { p50: q(0.5), p99: q(0.99), max: q(1) };
}

/**
 * CPU time a process has used so far, in microseconds (user plus system, from /proc), or
 * null where there is no /proc. Divided by the requests served meanwhile it gives the host's
 * own cost per request: unlike a ratio to /healthz, it does not move when the floor does.
 */
export function cpuMicros(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name: state is field 3, utime 14 and stime 15, in clock ticks (100 a second).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}
