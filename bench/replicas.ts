import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { createDb, migrateDatabase } from '@frontdesk/db';
import { startPrimaryAndStandby, whyNoStandby } from '@frontdesk/dev-env/standby';
import { cpuMicros, startHost } from './host';
import { bookContinuously, seedCrowdedZip } from './seed';

/**
 * find_cleaners over 1,000 businesses (10 ZIPs of 100, each with 20 bookings), on a primary
 * alone and on the same primary plus one streaming standby (DATABASE_READ_URL), in the same
 * run: two book hosts over the same servers, measured in alternating turns while customers
 * keep booking (so the hosts' caches keep being voided and searches reach the database).
 * Needs Debian's PostgreSQL 15 programs and root or the postgres user (whyNoStandby); it
 * starts its own two servers on ports 55434 and 55435.
 */
export const REPLICA_CASE = 'find_cleaners 1,000 businesses replica';

const PORTS = { primary: Number(process.env.BENCH_REPLICA_PORT ?? 55434), standby: Number(process.env.BENCH_REPLICA_PORT ?? 55434) + 1 };
const ZIPS = Array.from({ length: 10 }, (_, i) => String(40100 + i));
const PER_ZIP = 100;
const PUBLIC_KEY = 'fdpub_bench_replica_key';

interface Turn {
  rps: number;
  p99: number;
  cpuUs: number | null;
}

export interface ReplicaResult {
  skipped?: string;
  connections?: number;
  rounds?: number;
  primary?: { rps: number; p99_ms: number; host_cpu_us_per_request: number | null };
  replica?: { rps: number; p99_ms: number; host_cpu_us_per_request: number | null };
  /** Median over rounds of the replica host's requests a second over the primary-only host's, in the same round. */
  ratio?: number;
  booked?: number;
  load?: string;
}

/** The machine's 1, 5 and 15 minute load averages: others share it. */
const loadAvg = () => (existsSync('/proc/loadavg') ? readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') : 'n/a');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const medianOf = (xs: (number | null)[]) => {
  const given = xs.filter((x): x is number => x !== null);
  return given.length ? Math.round(median(given)) : null;
};

async function turn(base: string, connections: number, seconds: number, pid: number | undefined): Promise<Turn> {
  const before = cpuMicros(pid);
  const r = await autocannon({
    url: base,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${PUBLIC_KEY}` },
    // Each connection cycles through the ten ZIPs.
    requests: ZIPS.map((zip) => ({ method: 'GET' as const, path: `/api/v1/find_cleaners?zip=${zip}&bedrooms=2&bathrooms=1` })),
  });
  const after = cpuMicros(pid);
  if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0) throw new Error(`find_cleaners: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    cpuUs: before === null || after === null || r.requests.total === 0 ? null : Math.round((after - before) / r.requests.total),
  };
}

export async function replicaBench(o: { rounds: number; seconds: number; connections: number }): Promise<ReplicaResult> {
  const cannot = whyNoStandby();
  if (cannot) return { skipped: cannot };
  let servers;
  try {
    servers = await startPrimaryAndStandby(PORTS);
  } catch (err) {
    return { skipped: `the primary and standby did not start: ${(err as Error).message.split('\n')[0]}` };
  }
  const hosts: ChildProcess[] = [];
  const db = createDb(servers.primaryUrl, { maxConnections: 4, statementTimeoutMs: 0 });
  try {
    await migrateDatabase(servers.primaryUrl);
    const proIds: string[] = [];
    for (const zip of ZIPS) proIds.push(...(await seedCrowdedZip(db, zip, PER_ZIP, 20)));
    process.stderr.write(`replica case: ${proIds.length} businesses seeded\n`);
    const primary = await startHost('book', servers.primaryUrl, PUBLIC_KEY);
    const replica = await startHost('book', servers.primaryUrl, PUBLIC_KEY, { DATABASE_READ_URL: servers.standbyUrl });
    hosts.push(primary.child, replica.child);
    // Customers book across the ZIPs all along: every booking voids the searches that list its business.
    const writer = bookContinuously(db, proIds, '10001', 50);
    const loadBefore = loadAvg();
    for (const h of [primary, replica]) await turn(h.base, 4, 1, h.child.pid); // JIT and pools warm
    const turns = { primary: [] as Turn[], replica: [] as Turn[] };
    const ratios: number[] = [];
    for (let round = 0; round < o.rounds; round += 1) {
      // Alternate which goes first, so neither always follows the other's load.
      const order = round % 2 === 0 ? (['primary', 'replica'] as const) : (['replica', 'primary'] as const);
      const got: Partial<Record<'primary' | 'replica', Turn>> = {};
      for (const which of order) {
        const h = which === 'primary' ? primary : replica;
        got[which] = await turn(h.base, o.connections, o.seconds, h.child.pid);
        turns[which].push(got[which]);
      }
      ratios.push(got.replica!.rps / got.primary!.rps);
      process.stderr.write(`replica case round ${round + 1}/${o.rounds} done\n`);
    }
    const { booked } = await writer.stop();
    const summary = (ts: Turn[]) => ({
      rps: Math.round(median(ts.map((t) => t.rps))),
      p99_ms: median(ts.map((t) => t.p99)),
      host_cpu_us_per_request: medianOf(ts.map((t) => t.cpuUs)),
    });
    return {
      connections: o.connections,
      rounds: o.rounds,
      primary: summary(turns.primary),
      replica: summary(turns.replica),
      ratio: Math.round(median(ratios) * 100) / 100,
      booked,
      load: `load average ${loadBefore} before, ${loadAvg()} after`,
    };
  } finally {
    for (const h of hosts) h.kill('SIGTERM');
    await db.destroy();
    servers.stop();
  }
}

export function replicaLines(r: ReplicaResult): string[] {
  if (r.skipped) return [`${REPLICA_CASE}: skipped, ${r.skipped}.`];
  return [
    `${REPLICA_CASE} at ${r.connections} connections, ${r.rounds} rounds: primary + 1 replica ${r.replica!.rps} req/s (p99 ${r.replica!.p99_ms} ms, host µs/req ${r.replica!.host_cpu_us_per_request ?? '-'}) vs primary alone ${r.primary!.rps} req/s (p99 ${r.primary!.p99_ms} ms, host µs/req ${r.primary!.host_cpu_us_per_request ?? '-'}); throughput ratio ${r.ratio} (median per round); ${r.booked} bookings made meanwhile; ${r.load}.`,
  ];
}
