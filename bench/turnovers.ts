import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { createDatabase, createDb, dropDatabase, migrateToLatest, type Db } from '@frontdesk/db';
import { DEFAULT_WEEKLY_HOURS, addDays, instantAtLocal, localDate, mergeFeedStays, staysInFeed } from '@frontdesk/domain';
import { addCrew, addProperty, createBusiness } from '@frontdesk/use-cases';
import { createFeedReader, feedsWorker } from '@frontdesk/workers';
import {
  AIRBNB_PRODID,
  BOOKING_PRODID,
  CalendarServer,
  VRBO_PRODID,
  airbnbBlock,
  airbnbStay,
  bookingClosed,
  calendar,
  vrboBlock,
  vrboStay,
  type FixtureEvent,
} from '@frontdesk/dev-env/ical-fixtures';

/**
 * Turnover sync (issue 37), measured in this process: 1,000 properties (5 to a business of 3 crews), each
 * with one calendar listing a year of stays (about 100, every tenth gap four nights long, a few
 * owner blocks), served by a calendar server on this machine, read by the feeds worker as a host
 * runs it (the due-feeds lease, the guarded reader, each property's reads applied in one
 * transaction). Rounds: the first read (every clean booked), a round where every feed answers
 * 304, and one where every feed changed (in each, one stay a night longer, one gone and one
 * new in a long gap). Figures: properties a second, and that beside parsing the same texts
 * alone (ical.js and the stay rules, no network, no database) in the same run.
 */
export const TURNOVER_CASE = 'turnover sync 1,000 properties';
const PROPERTIES = Number(process.env.BENCH_TURNOVER_PROPERTIES ?? 1000);
const PER_BUSINESS = 5;
const ZONE = 'America/New_York';
const MINUTE = 60_000;

type Source = 'airbnb' | 'vrbo' | 'booking';
interface BenchStay {
  uid: string;
  start: string;
  end: string;
}
interface BenchFeed {
  path: string;
  source: Source;
  stays: BenchStay[];
  blocks: BenchStay[];
}

/** A small deterministic generator, so every run lists the same stays. */
function generator(seed: number) {
  let x = seed * 2654435761 + 1;
  return (n: number) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
}

/** A year of stays from `from`: 2 to 4 nights, 0 or 1 night between, every tenth gap 4 nights; an owner block now and then. */
function yearOf(k: number, from: string): { stays: BenchStay[]; blocks: BenchStay[] } {
  const next = generator(k + 1);
  const stays: BenchStay[] = [];
  const blocks: BenchStay[] = [];
  let day = addDays(from, next(3));
  const until = addDays(from, 365);
  for (let i = 0; day < until; i++) {
    const end = addDays(day, 2 + next(3));
    stays.push({ uid: `p${k}-s${i}`, start: day, end });
    const gap = i % 10 === 9 ? 4 : next(2);
    if (gap === 1 && next(8) === 0) blocks.push({ uid: `p${k}-b${i}`, start: end, end: addDays(end, 1) });
    day = addDays(end, gap);
  }
  return { stays, blocks };
}

const events = (f: BenchFeed): FixtureEvent[] => {
  const [stay, block] =
    f.source === 'airbnb'
      ? [airbnbStay, airbnbBlock]
      : f.source === 'vrbo'
        ? [(u: string, s: string, e: string) => vrboStay(u, s, e), vrboBlock]
        : [bookingClosed, null];
  return [...f.stays.map((s) => stay(s.uid, s.start, s.end)), ...(block ? f.blocks.map((b) => block(b.uid, b.start, b.end)) : [])];
};
const PRODID: Record<Source, string> = { airbnb: AIRBNB_PRODID, vrbo: VRBO_PRODID, booking: BOOKING_PRODID };
const textOf = (f: BenchFeed) => calendar(PRODID[f.source], events(f));

/**
 * The feed after the guests changed things, all within the planning horizon: the guest of the
 * stay before the first four-night gap stays a night longer (Vrbo gives the stay a new UID; its
 * clean must move), the sixth stay is gone without a word (its clean is cancelled), and a
 * two-night stay arrives in the middle of the second four-night gap (a clean is booked).
 */
function changedFeed(f: BenchFeed): BenchFeed {
  const stays = f.stays.map((s) => ({ ...s }));
  const gaps = stays.flatMap((s, i) => (i > 5 && stays[i + 1] && addDays(s.end, 4) === stays[i + 1]!.start ? [i] : []));
  const [longer, roomy] = [stays[gaps[0]!]!, stays[gaps[1]!]!];
  longer.end = addDays(longer.end, 1);
  if (f.source === 'vrbo') longer.uid = `${longer.uid}-moved`;
  const added = { uid: `${roomy.uid}-new`, start: addDays(roomy.end, 1), end: addDays(roomy.end, 3) };
  const kept = stays.filter((_, i) => i !== 5);
  return { ...f, stays: [...kept, added].sort((a, b) => a.start.localeCompare(b.start)) };
}

/** Parses every text as the sync does (ical.js, the stay rules, one stay per dates): properties a second, the best of three passes. */
function parseOnly(texts: string[]): { per_second: number; stays: number } {
  let best = Infinity;
  let stays = 0;
  for (let pass = 0; pass < 3; pass++) {
    const t0 = process.hrtime.bigint();
    stays = 0;
    for (const text of texts) stays += mergeFeedStays([staysInFeed(text, ZONE).stays]).length;
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { per_second: Math.round(texts.length / (best / 1000)), stays };
}

/**
 * What one round of the worker did: properties a second from the first claim to the last commit,
 * and what the feeds and stays say after it. The worker's clock runs on from `now` as the round
 * takes time (as a host's does), so a round longer than the read interval reads its first feeds
 * again before it ends; `ended` is where its clock stood at the end.
 */
async function round(db: Db, run: (now: Date) => Promise<unknown>, now: Date) {
  const t0 = Date.now();
  await run(now);
  const ms = Date.now() - t0;
  const since = now;
  const outcomes = await db
    .selectFrom('property_feeds')
    .select(['outcome', sql<number>`count(*)::int`.as('n')])
    .groupBy('outcome')
    .execute();
  const events = await db
    .selectFrom('events')
    .select(['kind', sql<number>`count(*)::int`.as('n')])
    .where('kind', 'like', 'turnover.%')
    .where('created_at', '>=', since)
    .groupBy('kind')
    .execute();
  return {
    ended: new Date(now.getTime() + ms),
    seconds: Math.round(ms / 100) / 10,
    per_second: Math.round((PROPERTIES / (ms / 1000)) * 10) / 10,
    feeds: Object.fromEntries(outcomes.map((o) => [o.outcome ?? 'unread', o.n])),
    turnovers: Object.fromEntries(events.map((e) => [e.kind.replace('turnover.', ''), e.n])),
  };
}

async function turnovers(db: Db, cal: CalendarServer) {
  // The rounds' clock is the run's own, from noon of the business's day: the 304 round comes 19 minutes
  // after the first read, and from a start late in the evening it fell on the next day, whose
  // horizon takes in one more day of stays (about one feed in three books a new clean then).
  const today = localDate(new Date(), ZONE);
  const start = instantAtLocal(today, '12:00', ZONE);
  const feeds: BenchFeed[] = [];
  for (let b = 0; b * PER_BUSINESS < PROPERTIES; b++) {
    const { pro } = await createBusiness(db, { name: `Turnovers ${b}`, timezone: ZONE, service_zips: ['10001'], weekly_hours: DEFAULT_WEEKLY_HOURS });
    for (const crew of ['Second crew', 'Third crew']) await addCrew(db, pro.id, { name: crew }, start);
    for (let j = 0; j < PER_BUSINESS && b * PER_BUSINESS + j < PROPERTIES; j++) {
      const k = b * PER_BUSINESS + j;
      const feed: BenchFeed = { path: `/p/${k}.ics`, source: (['airbnb', 'vrbo', 'booking'] as const)[k % 3]!, ...yearOf(k, addDays(today, 1)) };
      feeds.push(feed);
      const url = cal.serve(feed.path, { body: textOf(feed) });
      await addProperty(
        db,
        pro,
        {
          name: `House ${k}`,
          address: `${k} Shore Rd`,
          zip: '10001',
          bedrooms: 2,
          bathrooms: 1,
          host_name: `Host ${k}`,
          host_email: `host${k}@example.com`,
          calendar_urls: [url],
        },
        start,
      );
    }
  }
  // The worker as a host runs it: due feeds leased 25 at a time, read through the guard (loopback allowed, as on an http host).
  const worker = feedsWorker(db, createFeedReader({ allowLoopback: true }));
  const run = (now: Date) => worker.run(now);
  // Each round 20 minutes after the last one's clock ended: every feed is due again (read every 15 minutes, give or take 1.5).
  const after = (r: { ended: Date }) => new Date(r.ended.getTime() + 20 * MINUTE);
  const first = await round(db, run, new Date(start.getTime() + MINUTE));
  const unchanged = await round(db, run, after(first));
  const changed = feeds.map(changedFeed);
  for (const f of changed) cal.serve(f.path, { body: textOf(f) });
  const changedRound = await round(db, run, after(unchanged));
  const parsed = parseOnly(changed.map(textOf));
  const stays = await db
    .selectFrom('stays')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('gone_at', 'is', null)
    .executeTakeFirstOrThrow();
  const booked = await db
    .selectFrom('bookings')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('status', '=', 'booked')
    .where('property_id', 'is not', null)
    .executeTakeFirstOrThrow();
  const ratio = (x: number) => Math.round((x / parsed.per_second) * 1000) / 1000;
  return {
    properties: PROPERTIES,
    stays_per_feed: Math.round(feeds.reduce((n, f) => n + f.stays.length, 0) / feeds.length),
    live_stays: stays.n,
    booked_cleans: booked.n,
    first_read: first,
    unchanged: { ...unchanged, vs_parse_only: ratio(unchanged.per_second) },
    changed: { ...changedRound, vs_parse_only: ratio(changedRound.per_second) },
    parse_only: parsed,
  };
}

export async function turnoverBench(adminUrl: string) {
  const name = `fd_bench_turnovers_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(adminUrl, name);
  const db = createDb(url);
  const cal = await new CalendarServer().start();
  try {
    await migrateToLatest(db);
    return await turnovers(db, cal);
  } finally {
    await cal.stop();
    await db.destroy();
    await dropDatabase(adminUrl, name);
  }
}

export function turnoverLines(r: Awaited<ReturnType<typeof turnoverBench>>): string[] {
  const line = (what: string, x: { per_second: number; seconds: number; feeds: object; turnovers: object }, ratio?: number) =>
    `  ${what}: ${x.per_second} properties/s (${x.seconds} s)${ratio === undefined ? '' : `, ${ratio}x parse-only`}; feeds ${JSON.stringify(x.feeds)}; turnovers ${JSON.stringify(x.turnovers)}`;
  return [
    `${TURNOVER_CASE}: ${r.properties} properties, ${r.stays_per_feed} stays a year each (${r.live_stays} live stays, ${r.booked_cleans} cleans booked at the end), read by the feeds worker from a local calendar server.`,
    line('first read, every clean booked', r.first_read),
    line('every feed 304', r.unchanged, r.unchanged.vs_parse_only),
    line('every feed changed (a stay a night longer, one gone, one new)', r.changed, r.changed.vs_parse_only),
    `  parse-only (ical.js + stay rules, no network, no database), the changed texts: ${r.parse_only.per_second} properties/s.`,
  ];
}

if (require.main === module) {
  void (async () => {
    const { startTestServer } = await import('@frontdesk/db/testing');
    const server = await startTestServer();
    try {
      process.stdout.write(`${turnoverLines(await turnoverBench(server.adminUrl)).join('\n')}\n`);
    } finally {
      await server.stop();
    }
  })();
}
