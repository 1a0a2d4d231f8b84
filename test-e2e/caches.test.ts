import { addCrew, addTimeOff, cancelBooking, createBusiness, rescheduleBooking, rotateBusinessKey } from '@frontdesk/use-cases';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { createDatabase, createDb, createProSession, dropDatabase, migrateToLatest, type Db } from '@frontdesk/db';
import { DEFAULT_PRICE_LIST } from '@frontdesk/domain';
import { callApi, dayLeft, startHost, type RunningService } from './helpers';
import { startsOf } from '@frontdesk/domain';

// Processes start and answer slower on a busy machine: limits that fit the work, and every wait is on readiness.
const TEST_MS = 120_000;
jest.setTimeout(TEST_MS);

// What each process keeps in memory (pro keys and profiles, open times, finished searches,
// the feed's head) is trusted only while PostgreSQL has announced no change: here the
// changes come from another process, as they would from another replica or from ops.
const admin = () => process.env.FD_TEST_ADMIN_URL!;
const PUBLIC_KEY = 'fdpub_cache_public_key';
let name: string;
let db: Db;
let pro: string;
let book: string;
const services: RunningService[] = [];

const call = callApi;
const start = (kind: 'pro-desk' | 'booking', url: string) => startHost(kind, { DATABASE_URL: url, PUBLIC_SHARED_KEY: PUBLIC_KEY }, services);

type Json = Record<string, any>;
/**
 * Calls until `done` holds, for at most a second after the change committed: the bound a
 * cached credential or profile has to stop being used on every replica. Returns the last answer.
 */
async function withinASecond(ask: () => Promise<{ status: number; body: Json }>, done: (r: { status: number; body: Json }) => boolean) {
  const deadline = Date.now() + 1000;
  for (;;) {
    const r = await ask();
    if (done(r) || Date.now() > deadline) return r;
    await new Promise((res) => setTimeout(res, 20));
  }
}

// These processes run on the real clock: 8 days from any day hold a whole Saturday to close.

/** The first open start after today: a job today would also bring a jobs.today event. */
const afterToday = (open: { body: Json }) => startsOf(open.body.open_times).find((t) => t.slice(0, 10) !== open.body.from)!;

async function newPro(zip: string) {
  return createBusiness(db, { name: `Cache ${zip}`, timezone: 'America/New_York', service_zips: [zip], min_notice_minutes: 0 });
}

beforeAll(async () => {
  name = `fd_e2e_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(admin(), name);
  db = createDb(url);
  await migrateToLatest(db);
  [pro, book] = [await start('pro-desk', url), await start('booking', url)];
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  await db.destroy();
  await dropDatabase(admin(), name);
});

describe('caches across processes', () => {
  // "After today" stays after today through each test: midnight falling mid-test would make it today.
  beforeEach(() => dayLeft('America/New_York', TEST_MS), TEST_MS + 6 * 60_000);

  it('a rotated key stops working on the pro host within a second, and the new key works at once', async () => {
    const { pro: p, apiKey } = await newPro('20001');
    const quote = `${pro}/quote_job?bedrooms=2&bathrooms=1`;
    expect((await call(quote, apiKey)).status).toBe(200);
    expect((await call(quote, apiKey)).status).toBe(200); // now kept in that process
    const fresh = await rotateBusinessKey(db, p.id, new Date());
    const old = await withinASecond(
      () => call(quote, apiKey),
      (r) => r.status === 401,
    );
    expect(old.status).toBe(401);
    expect((await call(quote, fresh)).status).toBe(200);
  });

  it('a price or hours change made elsewhere reaches quote_job, open_times and find_cleaners within a second', async () => {
    const { pro: p, apiKey } = await newPro('20002');
    const quote = `${pro}/quote_job?bedrooms=2&bathrooms=1`;
    const open = `${pro}/open_times?bedrooms=2&bathrooms=1&days=8`;
    const find = `${book}/find_cleaners?zip=20002&bedrooms=2&bathrooms=1`;
    const before = { quote: await call(quote, apiKey), open: await call(open, apiKey), find: await call(find, PUBLIC_KEY) };
    expect(before.quote.body.total).toBe(125);
    expect(before.find.body.cleaners[0].total).toBe(125);
    expect(startsOf(before.open.body.open_times).some((t) => new Date(t).getUTCDay() === 6)).toBe(true);

    // Raise the base price and close Saturdays, as the settings operations will.
    const hours = { ...Object.fromEntries(['1', '2', '3', '4', '5'].map((d) => [d, [{ start: '08:00', end: '18:00' }]])), '6': [], '7': [] };
    await sql`UPDATE pros SET price_list = ${JSON.stringify({ ...DEFAULT_PRICE_LIST, base_cents: DEFAULT_PRICE_LIST.base_cents + 2000 })}::jsonb,
                             weekly_hours = ${JSON.stringify(hours)}::jsonb
               WHERE id = ${p.id}`.execute(db);

    expect(
      (
        await withinASecond(
          () => call(quote, apiKey),
          (r) => r.body.total === 145,
        )
      ).body.total,
    ).toBe(145);
    const after = await withinASecond(
      () => call(open, apiKey),
      (r) => !startsOf(r.body.open_times).some((t) => new Date(t).getUTCDay() === 6),
    );
    expect(after.body.open_times.length).toBeGreaterThan(0);
    expect(startsOf(after.body.open_times).filter((t) => new Date(t).getUTCDay() === 6)).toEqual([]);
    expect(
      (
        await withinASecond(
          () => call(find, PUBLIC_KEY),
          (r) => r.body.cleaners[0]?.total === 145,
        )
      ).body.cleaners[0].total,
    ).toBe(145);
  });

  it("the business's own settings change shows in its next answer, and on the book host within a second", async () => {
    const { pro: p, apiKey } = await newPro('20005');
    const quote = `${pro}/quote_job?bedrooms=2&bathrooms=1`;
    const open = `${pro}/open_times?bedrooms=2&bathrooms=1&days=8`;
    const find = `${book}/find_cleaners?zip=20005&bedrooms=2&bathrooms=1`;
    const times = `${book}/available_times?cleaner_id=${p.id}&bedrooms=2&bathrooms=1&days=8`;
    const saturdays = (r: { body: Json }) => startsOf(r.body.open_times).filter((t) => new Date(t).getUTCDay() === 6);
    // Each host keeps what it answered.
    for (const [url, key] of [
      [quote, apiKey],
      [open, apiKey],
      [find, PUBLIC_KEY],
      [times, PUBLIC_KEY],
      [find, PUBLIC_KEY],
      [times, PUBLIC_KEY],
    ] as const) {
      expect((await call(url, key)).status).toBe(200);
    }
    expect(saturdays(await call(times, PUBLIC_KEY))).not.toEqual([]);

    const changed = await call(`${pro}/update_business`, apiKey, { prices: { base: 80 }, working_hours: { saturday: [] } });
    expect(changed.status).toBe(200);
    expect((await call(quote, apiKey)).body.total).toBe(145);
    expect(saturdays(await call(open, apiKey))).toEqual([]);
    const found = await withinASecond(
      () => call(find, PUBLIC_KEY),
      (r) => r.body.cleaners[0]?.total === 145,
    );
    expect(found.body.cleaners[0].total).toBe(145);
    const listed = await withinASecond(
      () => call(times, PUBLIC_KEY),
      (r) => saturdays(r).length === 0,
    );
    expect(saturdays(listed)).toEqual([]);

    // A day off: gone from the pro host's next answer, and from the book host within a second.
    const day = afterToday(await call(open, apiKey)).slice(0, 10);
    expect((await call(`${pro}/add_time_off`, apiKey, { start: day, end: day })).status).toBe(200);
    expect(startsOf((await call(open, apiKey)).body.open_times).filter((t) => t.startsWith(day))).toEqual([]);
    const off = await withinASecond(
      () => call(times, PUBLIC_KEY),
      (r) => !startsOf(r.body.open_times).some((t) => t.startsWith(day)),
    );
    expect(startsOf(off.body.open_times).filter((t) => t.startsWith(day))).toEqual([]);
  });

  it('a booking made through the other host shows in the next answer of open_times, find_cleaners and updates', async () => {
    const { pro: p, apiKey } = await newPro('20003');
    const open = `${pro}/open_times?bedrooms=2&bathrooms=1&days=7`;
    const find = `${book}/find_cleaners?zip=20003&bedrooms=2&bathrooms=1`;
    const first = afterToday(await call(open, apiKey));
    await call(open, apiKey);
    expect((await call(find, PUBLIC_KEY)).body.cleaners).toHaveLength(1);
    await call(find, PUBLIC_KEY); // kept by the book host
    const feed = await call(`${pro}/updates?since=0`, apiKey);
    await call(`${pro}/updates?since=${feed.body.cursor}`, apiKey); // at the head: answered from memory

    // The customer books the first open time on the book host...
    const booked = await call(`${book}/book_cleaning`, PUBLIC_KEY, {
      cleaner_id: p.id,
      start: first,
      bedrooms: 2,
      bathrooms: 1,
      customer_name: 'Dana Park',
      customer_phone: '212 555 0100',
      address: '1 Main St',
      zip: '20003',
    });
    expect(booked.status).toBe(200);
    // ...and the pro host's very next answers know it: the time is gone, the event is there.
    expect(startsOf((await call(open, apiKey)).body.open_times)).not.toContain(first);
    const now = (await call(find, PUBLIC_KEY)).body.cleaners[0].next_open_times.map((t: Json) => t.start);
    expect(now).not.toContain(first);
    const news = await call(`${pro}/updates?since=${feed.body.cursor}`, apiKey);
    expect(news.body.events).toMatchObject([{ kind: 'booking.created', booking_id: booked.body.booking_id }]);

    // A booking write never trusts what a process kept: the pro's own book_job for the
    // same time is judged under the pro's row lock and refused.
    const again = await call(`${pro}/book_job`, apiKey, {
      bedrooms: 2,
      bathrooms: 1,
      start: first,
      customer_name: 'Someone Else',
      customer_phone: '212 555 0101',
      address: '2 Main St',
      zip: '20003',
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/was just taken by another booking/);
  });

  it('the client list and its search, kept by the pro host, show a booking made through the other host in the next answer, and a cancel written by another process within a second', async () => {
    const { pro: p, apiKey } = await newPro('20007');
    const first = afterToday(await call(`${pro}/open_times?bedrooms=2&bathrooms=1&days=7`, apiKey));
    const list = `${pro}/list_clients`;
    const search = `${pro}/list_clients?search=555-0177`;
    for (const url of [list, search, list, search]) expect((await call(url, apiKey)).body).toMatchObject({ count: 0, clients: [] }); // the second of each kept

    const booked = await call(`${book}/book_cleaning`, PUBLIC_KEY, {
      cleaner_id: p.id,
      start: first,
      bedrooms: 2,
      bathrooms: 1,
      customer_name: 'Rosa Diaz',
      customer_phone: '(212) 555-0177',
      address: '7 Elm St',
      zip: '20007',
    });
    expect(booked.status).toBe(200);
    for (const url of [list, search]) {
      const shown = (await call(url, apiKey)).body;
      expect(shown).toMatchObject({ count: 1, clients: [{ name: 'Rosa Diaz', phone: '(212) 555-0177', booked_jobs: 1, last_visit: null }] });
      expect(shown.clients[0].next_visit).toEqual(expect.any(String));
    }

    // Cancelled by another process (as ops or another replica would), answered once its notification is heard: no visit counted.
    await sql`UPDATE bookings SET status = 'cancelled', cancelled_at = now() WHERE id = ${booked.body.booking_id}`.execute(db);
    for (const url of [list, search]) {
      const r = await withinASecond(
        () => call(url, apiKey),
        (r) => r.body.clients?.[0]?.booked_jobs === 0,
      );
      expect(r.body).toMatchObject({ count: 1, clients: [{ name: 'Rosa Diaz', booked_jobs: 0, next_visit: null, last_visit: null }] });
    }
  });

  it('a write on the pro host shows in its own next answer (the write waits until the process has heard it)', async () => {
    const { apiKey } = await newPro('20004');
    const open = `${pro}/open_times?bedrooms=2&bathrooms=1&days=7`;
    const first = afterToday(await call(open, apiKey));
    const booked = await call(`${pro}/book_job`, apiKey, {
      bedrooms: 2,
      bathrooms: 1,
      start: first,
      customer_name: 'Ana Lopez',
      customer_phone: '212 555 0102',
      address: '3 Main St',
      zip: '20004',
    });
    expect(booked.body).toMatchObject({ status: 'booked' });
    expect(startsOf((await call(open, apiKey)).body.open_times)).not.toContain(first);
  });

  it('the board page is kept only until its business changes: a booking through the book host, and a move, a crew, time off and a cancel written by another process, each show on the next load', async () => {
    const { pro: p, apiKey } = await newPro('20006');
    const token = await createProSession(db, p.id, new Date(Date.now() + 86_400_000), new Date());
    const open = await call(`${pro}/open_times?bedrooms=2&bathrooms=1&days=7`, apiKey);
    const first = afterToday(open);
    const day = first.slice(0, 10);
    // The day's last open start, where the job moves to, as a block says it (`12:30 PM`).
    const last = startsOf(open.body.open_times)
      .filter((t) => t.startsWith(day))
      .at(-1)!;
    const hour = Number(last.slice(11, 13));
    const lastSaid = `${hour % 12 === 0 ? 12 : hour % 12}:${last.slice(14, 16)} ${hour < 12 ? 'AM' : 'PM'} to`;
    expect(last).not.toBe(first);
    const board = async () => {
      const res = await fetch(`${pro.replace(/\/api\/v1$/, '')}/dashboard/board?date=${day}`, { headers: { cookie: `fd_pro_session=${token}` } });
      expect(res.status).toBe(200);
      return res.text();
    };
    const blockOf = (page: string, id: string) => page.slice(page.indexOf(`data-job="${id}"`), page.indexOf('</a>', page.indexOf(`data-job="${id}"`)));
    expect(await board()).not.toContain('data-job=');
    expect(await board()).not.toContain('data-job='); // now kept by the pro host

    const booked = await call(`${book}/book_cleaning`, PUBLIC_KEY, {
      cleaner_id: p.id,
      start: first,
      bedrooms: 2,
      bathrooms: 1,
      customer_name: 'Dana Park',
      customer_phone: '212 555 0100',
      address: '1 Main St',
      zip: '20006',
    });
    expect(booked.status).toBe(200);
    const id = booked.body.booking_id as string;
    const shown = await board();
    expect(blockOf(shown, id)).toContain('Dana Park');
    expect(await board()).toBe(shown);

    // Written by this process, as ops or another replica would: each shows once the host has heard
    // it (its change feed's notice crosses processes; within a second, as the answers above).
    const boardOnceHeard = async (shows: (page: string) => boolean) => {
      for (const until = Date.now() + 1000; ; await new Promise((r) => setTimeout(r, 20))) {
        const page = await board();
        if (shows(page) || Date.now() > until) return page;
      }
    };
    await rescheduleBooking(db, { by: 'pro', proId: p.id, bookingId: id }, { start: last.slice(0, 19), now: new Date() });
    expect(blockOf(shown, id)).not.toContain(lastSaid);
    expect(blockOf(await boardOnceHeard((page) => blockOf(page, id).includes(lastSaid)), id)).toContain(lastSaid);
    await addCrew(db, p.id, { name: 'Crew Violet' }, new Date());
    expect(await boardOnceHeard((page) => page.includes('Crew Violet'))).toContain('Crew Violet');
    await addTimeOff(db, p.id, { start: day, end: day, note: 'Inventory day' }, new Date());
    const closed = await boardOnceHeard((page) => page.includes('(Inventory day).'));
    expect(closed).toContain('(Inventory day).');
    expect(blockOf(closed, id)).toContain('class="flag"');
    await cancelBooking(db, { by: 'pro', proId: p.id, bookingId: id }, new Date());
    expect(await boardOnceHeard((page) => !page.includes(`data-job="${id}"`))).not.toContain(`data-job="${id}"`);
  });
});
