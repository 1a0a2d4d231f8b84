import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { createDatabase, createDb, createPro, dropDatabase, migrateToLatest, newId } from '@frontdesk/db';
import { startTestServer } from '@frontdesk/db/testing';
import { DEFAULT_PRICE_LIST, normalizeJob, priceJob } from '@frontdesk/domain';

/**
 * `pnpm bench`: requests/second and latency of quote_job and open_times (21 days, a pro with
 * 300 future bookings) next to a bare Express endpoint with the same auth, in one run on
 * this machine. Figures are reported as ratios to that baseline; absolute numbers vary.
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

async function seed(url: string) {
  const db = createDb(url);
  await migrateToLatest(db);
  // Open around the clock so 300 bookings fit inside the 21 days open_times reads.
  const allDay = [{ start: '00:00', end: '24:00' }];
  const hours = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, allDay]));
  const { pro, apiKey } = await createPro(db, { name: 'Bench Cleaning', timezone: 'America/New_York', service_zips: ['10001'], weekly_hours: hours, min_notice_minutes: 0 });
  const quote = priceJob(normalizeJob({ bedrooms: 0, bathrooms: 1 }), DEFAULT_PRICE_LIST);
  // 15 back-to-back jobs a day (45 min + 30 min buffer) for 20 days: the rest of each day is open.
  const first = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000;
  const rows = Array.from({ length: 300 }, (_, i) => {
    const start = new Date(first + Math.floor(i / 15) * 86_400_000 + (i % 15) * 75 * 60_000);
    const end = new Date(start.getTime() + quote.duration_minutes * 60_000);
    return {
      id: newId('bk'), pro_id: pro.id, lead_id: null, channel: 'pro' as const, client_name: null,
      starts_at: start, ends_at: end, blocked_until: new Date(end.getTime() + 30 * 60_000),
      customer_name: `Customer ${i}`, customer_phone: '555-0100', customer_email: null, address: '1 Main St', zip: '10001',
      notes: null, access_details: null, bedrooms: 0, bathrooms: 1, clean_type: 'standard' as const, sqft: null,
      frequency: 'once' as const, add_ons: [], pets: false, price_cents: quote.total_cents, quote: JSON.stringify(quote),
      fee_waived_at: null, manage_token_hash: null, account_email: null, cancelled_at: null, cancelled_by: null, no_show_reported_at: null,
    };
  });
  await db.insertInto('bookings').values(rows).execute();
  const inWindow = await sql<{ n: number }>`SELECT count(*)::int AS n FROM bookings WHERE pro_id = ${pro.id} AND starts_at < now() + interval '21 days'`.execute(db);
  await db.destroy();
  return { apiKey, inWindow: inWindow.rows[0]!.n };
}

function load(url: string, key: string, connections: number) {
  return autocannon({ url, connections, duration: SECONDS, headers: { authorization: `Bearer ${key}` } });
}

async function main(): Promise<void> {
  const server = await startTestServer();
  const name = `fd_bench_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(server.adminUrl, name);
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(__dirname, 'server.ts')], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const { apiKey, inWindow } = await seed(url);
    const ports = await new Promise<{ api: number; bare: number }>((res, rej) => {
      child.stdout!.once('data', (d) => res(JSON.parse(String(d))));
      child.once('exit', () => rej(new Error('bench server exited')));
    });
    const api = `http://127.0.0.1:${ports.api}/api/v1`;
    const openTimesUrl = `${api}/open_times?bedrooms=0&bathrooms=1&days=21`;
    const targets = [
      ['bare Express + same auth (baseline)', `http://127.0.0.1:${ports.bare}/bare`, CONNECTIONS],
      ['quote_job', `${api}/quote_job?bedrooms=3&bathrooms=2&add_ons=oven,fridge&frequency=weekly`, CONNECTIONS],
      ['open_times, 21 days, 300 bookings', openTimesUrl, CONNECTIONS],
      ['open_times, 21 days, 300 bookings', openTimesUrl, 4],
      ['open_times, 21 days, 300 bookings', openTimesUrl, 1],
    ] as const;
    // Warm up every path (JIT, connection pool) before measuring.
    for (const [, target] of targets) await autocannon({ url: target, connections: 4, duration: 2, headers: { authorization: `Bearer ${apiKey}` } });
    const probe = await fetch(targets[2][1], { headers: { authorization: `Bearer ${apiKey}` } });
    const openCount = ((await probe.json()) as { count: number }).count;
    const results = [];
    for (const [label, target, connections] of targets) {
      const r = await load(target, apiKey, connections);
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${label}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      results.push({ label, connections, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 });
    }
    const base = results[0]!.rps;
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
        `quote_job throughput is ${Math.round((results[1]!.rps / base) * 100)}% of the baseline (target: at least 50%); open_times p99 is ${results[2]!.p99} / ${results[3]!.p99} / ${results[4]!.p99} ms at ${CONNECTIONS} / 4 / 1 connections (target: under 25 ms).`,
        '',
      ].join('\n'),
    );
  } finally {
    child.kill('SIGTERM');
    await dropDatabase(server.adminUrl, name).catch(() => {});
    await server.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
