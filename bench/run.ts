import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { createDb, createDatabase, dropDatabase, migrateToLatest, type Db } from '@frontdesk/db';
import { createBooking, findCleaners } from '@frontdesk/use-cases';
import { normalizeJob } from '@frontdesk/domain';
import { startTestServer } from '@frontdesk/db/testing';
import { seedBusyPro, seedCrowdedZip } from './seed';

/**
 * `pnpm bench`: requests/second and latency of quote_job and open_times (21 days, a pro with
 * 300 future bookings) next to a bare Express endpoint with the same auth; find_cleaners for
 * a ZIP served by 200 pros with 100 future bookings each; and the latency of a 20-way race
 * for one slot next to an uncontended booking. All in one run on this machine: compare the
 * ratios, not the absolute numbers.
 */
const PUBLIC_KEY = 'fdpub_bench_public_key';
const CROWDED_ZIP = '30303';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

function load(url: string, key: string, connections: number) {
  return autocannon({ url, connections, duration: SECONDS, headers: { authorization: `Bearer ${key}` } });
}

async function main(): Promise<void> {
  const server = await startTestServer();
  const name = `fd_bench_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(server.adminUrl, name);
  const db = createDb(url);
  await migrateToLatest(db);
  const { apiKey, inWindow, pro } = await seedBusyPro(db);
  const crowd = await seedCrowdedZip(db, CROWDED_ZIP);
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(__dirname, 'server.ts')], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', PUBLIC_SHARED_KEY: PUBLIC_KEY },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const ports = await new Promise<{ api: number; bare: number; book: number }>((res, rej) => {
      child.stdout.once('data', (d) => res(JSON.parse(String(d))));
      child.once('exit', () => rej(new Error('bench server exited')));
    });
    const api = `http://127.0.0.1:${ports.api}/api/v1`;
    const openTimesUrl = `${api}/open_times?bedrooms=0&bathrooms=1&days=21`;
    const book = `http://127.0.0.1:${ports.book}/api/v1`;
    const findUrl = `${book}/find_cleaners?zip=${CROWDED_ZIP}&bedrooms=2&bathrooms=1`;
    const targets = [
      ['bare Express + same auth (baseline)', `http://127.0.0.1:${ports.bare}/bare`, CONNECTIONS],
      ['quote_job', `${api}/quote_job?bedrooms=3&bathrooms=2&add_ons=oven,fridge&frequency=weekly`, CONNECTIONS],
      ['open_times, 21 days, 300 bookings', openTimesUrl, CONNECTIONS],
      ['open_times, 21 days, 300 bookings', openTimesUrl, 4],
      ['open_times, 21 days, 300 bookings', openTimesUrl, 1],
      ['find_cleaners, 200 pros x 100 bookings', findUrl, 16],
    ] as const;
    // Warm up every path (JIT, connection pool) before measuring.
    const keyFor = (target: string) => (target.startsWith(book) ? PUBLIC_KEY : apiKey);
    for (const [, target] of targets) await autocannon({ url: target, connections: 4, duration: 2, headers: { authorization: `Bearer ${keyFor(target)}` } });
    const probe = await fetch(targets[2][1], { headers: { authorization: `Bearer ${apiKey}` } });
    const openCount = ((await probe.json()) as { count: number }).count;
    const results = [];
    let writes = { attempted: 0, booked: 0 };
    for (const [label, target, connections] of targets) {
      // Searches run while customers keep booking in the same ZIP: each booking changes a
      // cleaner's availability version, so the cache is measured under realistic churn.
      const writer = target === findUrl ? bookContinuously(db, crowd) : null;
      const r = await load(target, keyFor(target), connections);
      if (writer) writes = await writer.stop();
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${label}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      results.push({ label, connections, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 });
    }
    const base = results[0]!.rps;
    const race = await raceLatency(book, pro.id);
    const cold = await coldSearch(db);
    process.stdout.write(
      [
        '',
        `pnpm bench: ${SECONDS} s per row, server in its own process (${server.source}); ${inWindow} of the 300 bookings fall in the 21 days.`,
        '',
        '| endpoint | connections | req/s | vs baseline | p50 ms | p99 ms |',
        '|---|---:|---:|---:|---:|---:|',
        ...results.map((r) => `| ${r.label} | ${r.connections} | ${Math.round(r.rps)} | ${(r.rps / base).toFixed(2)} | ${r.p50} | ${r.p99} |`),
        '',
        `open_times answered ${openCount} start times per call.`,
        `find_cleaners p99 is ${results[5]!.p99} ms at 16 connections (target: under 100 ms), while ${writes.booked} bookings (of ${writes.attempted} tries) landed in that ZIP during the run.`,
        `find_cleaners with no cached open times (every pro recomputed): ${cold.p50} ms median, ${cold.max} ms max, one call at a time.`,
        '',
        `Booking race: ${race.rounds} rounds of 20 concurrent book_cleaning calls for one slot, each round exactly one booking.`,
        `| | p50 ms | p99 ms | max ms |`,
        `|---|---:|---:|---:|`,
        `| uncontended book_cleaning (baseline) | ${race.solo.p50} | ${race.solo.p99} | ${race.solo.max} |`,
        `| one of 20 racing for a slot | ${race.racing.p50} | ${race.racing.p99} | ${race.racing.max} |`,
        `| a whole round (all 20 answered) | ${race.round.p50} | ${race.round.p99} | ${race.round.max} |`,
        `A racing call takes ${(race.racing.p50 / race.solo.p50).toFixed(1)}x an uncontended booking at the median.`,
        `quote_job throughput is ${Math.round((results[1]!.rps / base) * 100)}% of the baseline (target: at least 50%); open_times p99 is ${results[2]!.p99} / ${results[3]!.p99} / ${results[4]!.p99} ms at ${CONNECTIONS} / 4 / 1 connections (target: under 25 ms).`,
        '',
      ].join('\n'),
    );
  } finally {
    await db.destroy();
    child.kill('SIGTERM');
    await dropDatabase(server.adminUrl, name).catch(() => {});
    await server.stop();
  }
}

/** Books random slots of random crowd pros every 50 ms until stopped (through the real booking path). */
function bookContinuously(db: Db, proIds: string[]) {
  let running = true;
  const counts = { attempted: 0, booked: 0 };
  const job = normalizeJob({ bedrooms: 1, bathrooms: 1 });
  const loop = (async () => {
    for (let i = 0; running; i += 1) {
      // Days past the seeded bookings, 08:00-14:00 in New York: each try should land and
      // change that cleaner's availability version.
      let day = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + (30 + Math.floor(i / 200)) * 86_400_000;
      while ([0, 6].includes(new Date(day).getUTCDay())) day += 86_400_000; // weekdays only
      const start = new Date(day + (13 + 2 * (Math.floor(i / 50) % 4)) * 3_600_000);
      counts.attempted += 1;
      try {
        await createBooking(db, {
          proId: proIds[i % proIds.length]!,
          job,
          start,
          customer: { name: 'Writer', phone: '2125550100', email: null },
          address: '1 Main St',
          zip: CROWDED_ZIP,
          notes: null,
          accessDetails: null,
          channel: 'book',
          clientName: 'bench',
          leadId: null,
          feeCents: 500,
          manageTokenHash: null,
          accountEmail: null,
          expectedTotalCents: null,
          now: new Date(),
        });
        counts.booked += 1;
      } catch {
        // taken or outside hours: a refusal is part of the traffic
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return counts;
    },
  };
}

/** The search with every cleaner's open times recomputed, one call at a time. */
async function coldSearch(db: Db) {
  const job = normalizeJob({ bedrooms: 2, bathrooms: 1 });
  const ms: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const t0 = performance.now();
    await findCleaners(db, CROWDED_ZIP, job, { days: 7, now: new Date(), limit: 10, cache: false });
    ms.push(performance.now() - t0);
  }
  return stats(ms.slice(3));
}

function stats(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;
  return { p50: at(0.5), p99: at(0.99), max: at(1) };
}

/** Rounds of 20 concurrent bookings for one slot (exactly one must win), against solo bookings. */
async function raceLatency(book: string, proId: string) {
  const headers = { authorization: `Bearer ${PUBLIC_KEY}`, 'content-type': 'application/json' };
  const open = (await (await fetch(`${book}/available_times?cleaner_id=${proId}&bedrooms=0&bathrooms=1&days=21`, { headers })).json()) as {
    open_times: { start: string }[];
  };
  const slots = open.open_times.filter((_, i) => i % 4 === 0).map((t) => t.start);
  const attempt = async (start: string) => {
    const t0 = performance.now();
    const res = await fetch(`${book}/book_cleaning`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        cleaner_id: proId,
        start,
        bedrooms: 0,
        bathrooms: 1,
        customer_name: 'Racer',
        customer_phone: '212 555 0100',
        address: '1 Main St',
        zip: '10001',
      }),
    });
    await res.arrayBuffer();
    return { ms: performance.now() - t0, ok: res.status === 200 };
  };
  const solo: number[] = [];
  for (const start of slots.splice(0, 20)) solo.push((await attempt(start)).ms);
  const racing: number[] = [];
  const round: number[] = [];
  let rounds = 0;
  for (const start of slots.splice(0, 20)) {
    const t0 = performance.now();
    const results = await Promise.all(Array.from({ length: 20 }, () => attempt(start)));
    round.push(performance.now() - t0);
    if (results.filter((r) => r.ok).length !== 1) throw new Error(`race for ${start}: ${results.filter((r) => r.ok).length} winners`);
    racing.push(...results.map((r) => r.ms));
    rounds += 1;
  }
  return { rounds, solo: stats(solo), racing: stats(racing), round: stats(round) };
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
