import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { availabilityVersion, createDb, createDatabase, dropDatabase, migrateToLatest, type Db, type Pro } from '@frontdesk/db';
import { DEFAULT_PRICE_LIST, DEFAULT_WEEKLY_HOURS, normalizeJob, priceJob } from '@frontdesk/domain';
import { startTestServer } from '@frontdesk/db/testing';
import { createBooking, openTimesFor, readUpdates, createBusiness } from '@frontdesk/use-cases';
import { proBookingRequest } from '@frontdesk/use-cases/testing';
import { startHost, stats } from './host';

/**
 * `pnpm bench --scale`: one PostgreSQL seeded like a large deployment (10,000 pros, 10 M
 * events, 1 M bookings; BENCH_SCALE=0.1 for a tenth), with set-based SQL. One pro's feed and
 * bookings grow from 100 k to 1 M; the cost of each per-pro read is measured uncached (the
 * database's share, as a process with no change feed pays it) at both sizes. Then
 * find_cleaners for a ZIP served by 1,000 pros, through the book host at 16 connections.
 */
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const PROS = Math.round(10_000 * SCALE);
const CROWD = Math.min(1000, PROS);
const SMALL = Math.round(100_000 * SCALE);
const LARGE = Math.round(1_000_000 * SCALE);
const EVENTS_TOTAL = Math.round(10_000_000 * SCALE);
const CROWD_ZIP = '40404';
const OUT = resolve(process.env.BENCH_OUT ?? resolve(__dirname, 'results'));
const PUBLIC_KEY = 'fdpub_scale_public_key';
const DAY = 86_400_000;

const step = (what: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${what}\n`);

async function timed(fn: () => Promise<unknown>, n = 60) {
  for (let i = 0; i < 5; i += 1) await fn();
  const ms: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  const { p50, p99 } = stats(ms);
  return { p50, p99 };
}

/** Pros of the deployment: the first CROWD serve one ZIP, the rest spread over 5,000 ZIPs. */
async function seedPros(db: Db) {
  await sql`
    INSERT INTO pros (id, name, timezone, service_zips, price_list, weekly_hours, min_notice_minutes)
    SELECT 'pro_scale_' || g, 'Scale Cleaning ' || g, 'America/New_York',
           ARRAY[CASE WHEN g <= ${CROWD} THEN ${CROWD_ZIP} ELSE lpad((10000 + g % 5000)::text, 5, '0') END],
           ${JSON.stringify(DEFAULT_PRICE_LIST)}::jsonb, ${JSON.stringify(DEFAULT_WEEKLY_HOURS)}::jsonb, 0
      FROM generate_series(1, ${PROS}::int) g`.execute(db);
}

/** `each` events per seeded pro, spread over the last year, and each pro's head set to match. */
async function seedEvents(db: Db, each: number) {
  await sql`
    INSERT INTO events (pro_id, seq, kind, payload, created_at)
    SELECT p.id, s, 'booking.created', '{"message":"A seeded booking"}'::jsonb, now() - interval '365 days' + s * (interval '365 days' / ${each}::int)
      FROM pros p CROSS JOIN generate_series(1, ${each}::int) s
     WHERE p.id LIKE 'pro_scale_%'`.execute(db);
  await sql`UPDATE pros SET event_seq = ${each} WHERE id LIKE 'pro_scale_%'`.execute(db);
}

/** Grows one pro's feed to `to` events (the newest in the last 7 days too) and its bookings to `to`, mostly in the past. */
async function growPro(db: Db, pro: Pro, from: number, to: number) {
  const quote = priceJob(normalizeJob({ bedrooms: 0, bathrooms: 1 }), DEFAULT_PRICE_LIST);
  // After the head: measuring wrote events of its own.
  const { event_seq: head } = await db.selectFrom('pros').select('event_seq').where('id', '=', pro.id).executeTakeFirstOrThrow();
  const last = head + to - from;
  await sql`
    INSERT INTO events (pro_id, seq, kind, payload, created_at)
    SELECT ${pro.id}, s, 'booking.created', '{"message":"A seeded booking"}'::jsonb, now() - (${last}::int - s) * interval '30 seconds'
      FROM generate_series(${head + 1}::int, ${last}::int) s`.execute(db);
  await sql`UPDATE pros SET event_seq = ${last} WHERE id = ${pro.id}`.execute(db);
  // One booking an hour going back from 60 days ago: the past a busy-time read must not touch.
  await sql`
    INSERT INTO bookings (id, pro_id, channel, starts_at, ends_at, blocked_until, customer_name, customer_phone, address, zip,
                          bedrooms, bathrooms, clean_type, frequency, add_ons, pets, price_cents, quote)
    SELECT 'bk_scale_' || g, ${pro.id}, 'pro', t, t + interval '1 hour', t + interval '1 hour',
           'Customer ' || g, '555-0100', '1 Main St', '10001', 0, 1, 'standard', 'once', '{}'::text[], false, ${quote.total_cents}, ${JSON.stringify(quote)}::jsonb
      FROM generate_series(${from + 1}::int, ${to}::int) g, LATERAL (SELECT date_trunc('hour', now()) - interval '60 days' - g * interval '1 hour' AS t) x`.execute(
    db,
  );
  await sql`ANALYZE events`.execute(db);
  await sql`ANALYZE bookings`.execute(db);
}

/** Each crowd pro gets 20 future bookings: the search has real busy times to weigh. */
async function seedCrowdBookings(db: Db) {
  const quote = priceJob(normalizeJob({ bedrooms: 0, bathrooms: 1 }), DEFAULT_PRICE_LIST);
  await sql`
    INSERT INTO bookings (id, pro_id, channel, starts_at, ends_at, blocked_until, customer_name, customer_phone, address, zip,
                          bedrooms, bathrooms, clean_type, frequency, add_ons, pets, price_cents, quote)
    SELECT 'bk_crowd_' || p.n || '_' || g, p.id, 'book', t, t + interval '2 hours', t + interval '150 minutes',
           'Customer', '555-0100', '1 Main St', ${CROWD_ZIP}, 0, 1, 'standard', 'once', '{}'::text[], false, ${quote.total_cents}, ${JSON.stringify(quote)}::jsonb
      FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM pros WHERE ${CROWD_ZIP} = ANY(service_zips)) p,
           generate_series(1, 20) g,
           LATERAL (SELECT date_trunc('day', now()) + (1 + g / 2) * interval '1 day' + interval '14 hours' + (g % 2) * interval '3 hours' AS t) x`.execute(db);
}

async function measurePro(db: Db, pro: Pro, events: number) {
  const fresh = async () => await db.selectFrom('pros').selectAll().where('id', '=', pro.id).executeTakeFirstOrThrow();
  const p = await fresh();
  let slot = Math.ceil(Date.now() / DAY) * DAY + 400 * DAY + (events === SMALL ? 0 : 200 * DAY);
  const job = normalizeJob({ bedrooms: 0, bathrooms: 1 });
  const quote = priceJob(job, DEFAULT_PRICE_LIST);
  return {
    events_per_pro: events,
    bookings_per_pro: events,
    updates_without_since_ms: await timed(() => readUpdates(db, p, {}, { now: new Date() })),
    updates_with_cursor_ms: await timed(() => readUpdates(db, p, { since: p.event_seq - 10 }, { now: new Date() })),
    open_times_21_days_ms: await timed(() =>
      openTimesFor(db, [{ pro: p, availabilityVersion: availabilityVersion(p), durationMinutes: quote.duration_minutes }], {
        days: 21,
        now: new Date(),
        cache: false,
      }),
    ),
    book_job_ms: await timed(async () => {
      slot += 3 * 3_600_000;
      await createBooking(db, proBookingRequest(pro.id, new Date(slot), new Date(), { job, clientName: 'bench' }));
    }, 40),
  };
}

async function findCleanersUnderLoad(url: string) {
  const { child, base } = await startHost('book', url, PUBLIC_KEY);
  try {
    const find = `${base}/api/v1/find_cleaners?zip=${CROWD_ZIP}&bedrooms=2&bathrooms=1`;
    const headers = { authorization: `Bearer ${PUBLIC_KEY}` };
    const t0 = performance.now();
    await (await fetch(find, { headers })).arrayBuffer();
    const first = Math.round(performance.now() - t0);
    await autocannon({ url: find, connections: 16, duration: 2, headers });
    const r = await autocannon({ url: find, connections: 16, duration: 8, headers });
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`find_cleaners: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return { pros_in_zip: CROWD, first_call_ms: first, connections: 16, rps: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99 };
  } finally {
    child.kill('SIGTERM');
  }
}

export async function runScale(): Promise<void> {
  const server = await startTestServer();
  const name = `fd_scale_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(server.adminUrl, name);
  const db = createDb(url, { statementTimeoutMs: 0 });
  const started = performance.now();
  try {
    await migrateToLatest(db);
    step(`seeding ${PROS} pros`);
    await seedPros(db);
    // Open around the clock, so every measured book_job lands.
    const allDay = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]));
    const { pro } = await createBusiness(db, {
      name: 'Scale Target',
      timezone: 'America/New_York',
      service_zips: ['10001'],
      weekly_hours: allDay,
      min_notice_minutes: 0,
    });
    const otherEvents = Math.floor((EVENTS_TOTAL - LARGE) / PROS);
    step(`seeding ${otherEvents} events for each of ${PROS} pros`);
    await seedEvents(db, otherEvents);
    step(`seeding ${CROWD * 20} future bookings in ZIP ${CROWD_ZIP}`);
    await seedCrowdBookings(db);
    step(`growing one pro to ${SMALL} events and bookings`);
    await growPro(db, pro, 0, SMALL);
    await sql`VACUUM ANALYZE`.execute(db);
    const seededIn = Math.round((performance.now() - started) / 1000);
    step('measuring at the small size');
    const small = await measurePro(db, pro, SMALL);
    step(`growing it to ${LARGE}`);
    await growPro(db, pro, SMALL, LARGE);
    await sql`VACUUM ANALYZE`.execute(db);
    step('measuring at the large size');
    const large = await measurePro(db, pro, LARGE);
    step('find_cleaners at 16 connections');
    const find = await findCleanersUnderLoad(url);
    const { rows } = await sql<{ events: number; bookings: number; pros: number }>`
      SELECT (SELECT count(*)::int FROM events) AS events, (SELECT count(*)::int FROM bookings) AS bookings, (SELECT count(*)::int FROM pros) AS pros`.execute(
      db,
    );
    const result = {
      at: new Date().toISOString(),
      scale: SCALE,
      totals: rows[0],
      seeded_in_s: seededIn,
      total_s: Math.round((performance.now() - started) / 1000),
      small,
      large,
      find_cleaners: find,
    };
    mkdirSync(OUT, { recursive: true });
    writeFileSync(resolve(OUT, 'scale.json'), `${JSON.stringify(result, null, 2)}\n`);
    const ops = ['updates_without_since_ms', 'updates_with_cursor_ms', 'open_times_21_days_ms', 'book_job_ms'] as const;
    const table = [
      `pnpm bench --scale: ${rows[0]!.pros} pros, ${rows[0]!.events} events, ${rows[0]!.bookings} bookings (seeded in ${seededIn} s). One pro grown from ${SMALL} to ${LARGE} events and bookings; reads uncached, one call at a time.`,
      '',
      `| operation | p50 ms at ${SMALL} | p99 at ${SMALL} | p50 ms at ${LARGE} | p99 at ${LARGE} | p50 growth |`,
      '|---|---:|---:|---:|---:|---:|',
      ...ops.map(
        (op) =>
          `| ${op.replace(/_ms$/, '')} | ${small[op].p50} | ${small[op].p99} | ${large[op].p50} | ${large[op].p99} | ${(large[op].p50 / small[op].p50).toFixed(2)}x |`,
      ),
      '',
      `find_cleaners, ${find.pros_in_zip} pros in one ZIP, 16 connections through the book host: p50 ${find.p50_ms} ms, p99 ${find.p99_ms} ms (target under 100), ${find.rps} req/s; the first, uncached call took ${find.first_call_ms} ms.`,
      '',
    ].join('\n');
    writeFileSync(resolve(OUT, 'scale.md'), table);
    process.stdout.write(`\n${table}\nWritten to ${resolve(OUT, 'scale.json')}\n`);
  } finally {
    await db.destroy();
    await dropDatabase(server.adminUrl, name).catch(() => {});
    await server.stop();
  }
}
