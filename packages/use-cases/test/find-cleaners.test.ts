import { Kysely, PostgresDialect, sql } from 'kysely';
import { normalizeJob } from '@frontdesk/domain';
import { ChangeFeed, createPool, type Database } from '@frontdesk/db';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { makePro } from '@frontdesk/dev-env/factories';
import { cancelBooking, createBooking, findCleaners, findCleanersFor } from '../src';
import { proBookingRequest } from '../src/testing';

// A search of a ZIP is kept while the change feed hears nothing of its pros, and callers that
// miss together share one search. These count the searches PostgreSQL is asked for (the read of
// the pros serving the ZIP that each search starts with).

let t: TestDatabase;
let changes: ChangeFeed;
let db: Kysely<Database>;
let searches = 0;
/** The parameters of every query sent while set (what a search read, by id). */
let sent: unknown[][] | null = null;
beforeAll(async () => {
  t = await createTestDatabase();
  changes = await new ChangeFeed(t.url).start();
  db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: createPool(t.url) }),
    log: (e) => {
      if (e.level === 'query' && e.query.sql.includes('service_zips @>')) searches += 1;
      if (e.level === 'query') sent?.push([...e.query.parameters]);
    },
  });
});
afterAll(async () => {
  await db.destroy();
  await changes.close();
  await t.drop();
});

const now = new Date('2030-01-02T12:00:00Z');
const find = (zip: string) => findCleanersFor(db, { zip, bedrooms: 2, bathrooms: 1 }, { now, changes });

describe('find_cleaners kept between calls', () => {
  it('runs one search for callers that miss together, and one more, not one each, when that search ends stale', async () => {
    const { pro } = await makePro(t.db, { service_zips: ['30301'] });
    await changes.fence();

    searches = 0;
    const first = await Promise.all(Array.from({ length: 16 }, () => find('30301')));
    expect(searches).toBe(1);
    expect(first[0]!.search.offers.map((o) => o.pro.id)).toEqual([pro.id]);

    // A change is heard while a search runs (held at its last read, the pros' checks, by a lock
    // taken for the test): that search ends stale for everyone who waited on it. The waiters
    // then share the one search the first of them starts again.
    await t.db.updateTable('pros').set({ phone: '212 555 0101' }).where('id', '=', pro.id).execute();
    await changes.fence();
    searches = 0;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const lock = t.db.transaction().execute(async (trx) => {
      await sql`LOCK TABLE pro_checks IN ACCESS EXCLUSIVE MODE`.execute(trx);
      locked();
      await released;
    });
    await isLocked;
    const starter = find('30301');
    await t.db.updateTable('pros').set({ phone: '212 555 0102' }).where('id', '=', pro.id).execute();
    await changes.fence();
    const waiters = Array.from({ length: 15 }, () => find('30301'));
    release();
    await lock;
    const answers = await Promise.all([starter, ...waiters]);
    expect(searches).toBe(2);
    for (const a of answers) expect(a.search.offers.map((o) => o.pro.id)).toEqual([pro.id]);

    // Nothing heard since: the last search answers again without asking PostgreSQL.
    await find('30301');
    expect(searches).toBe(2);
  });

  it('reads again only the cleaner a booking or a cancellation changed, and shows it at once', async () => {
    const zip = '30302';
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) ids.push((await makePro(t.db, { service_zips: [zip] })).pro.id);
    await changes.fence();
    const before = (await find(zip)).search;
    expect(before.offers.map((o) => o.pro.id)).toEqual([...ids].sort());
    // The first cleaner's earliest start is booked: it moves last, its list without that start.
    const first = before.offers[0]!;
    const start = first.times[0]!.start;
    const { booking } = await createBooking(t.db, proBookingRequest(first.pro.id, start, now, { zip }));
    await changes.fence();
    const readFor = async () => {
      sent = [];
      searches = 0;
      const { search } = await find(zip);
      const read = new Set(sent.flat(2).filter((v) => ids.includes(v as string)));
      sent = null;
      expect(searches).toBe(0);
      return { search, read: [...read] };
    };
    const booked = await readFor();
    expect(booked.read).toEqual([first.pro.id]);
    expect(booked.search.offers.map((o) => o.pro.id)).toEqual([...before.offers.slice(1).map((o) => o.pro.id), first.pro.id]);
    expect(booked.search.offers.at(-1)!.times.map((x) => x.start)).not.toContainEqual(start);
    expect(booked.search).toEqual(await uncached(zip, 10));

    await cancelBooking(t.db, { by: 'pro', proId: first.pro.id, bookingId: booking.id }, now);
    await changes.fence();
    const cancelled = await readFor();
    expect(cancelled.read).toEqual([first.pro.id]);
    expect(cancelled.search).toEqual(before);
  });

  it('shows a cleaner kept but not shown before with its own times and checks when another drops out of the limit', async () => {
    const zip = '30303';
    for (let i = 0; i < 4; i += 1) await makePro(t.db, { service_zips: [zip] });
    await changes.fence();
    const ask = () => findCleanersFor(db, { zip, bedrooms: 2, bathrooms: 1, limit: 2 }, { now, changes });
    const before = (await ask()).search;
    const [first, second] = before.offers;
    await createBooking(t.db, proBookingRequest(first!.pro.id, first!.times[0]!.start, now, { zip }));
    await changes.fence();
    const after = (await ask()).search;
    expect(after.offers[0]!.pro.id).toBe(second!.pro.id);
    expect([first!.pro.id, second!.pro.id]).not.toContain(after.offers[1]!.pro.id);
    expect(after).toEqual(await uncached(zip, 2));
  });
});

/** The same search with nothing kept: what a kept one must equal. */
async function uncached(zip: string, limit: number) {
  return findCleaners(db, zip, normalizeJob({ bedrooms: 2, bathrooms: 1 }), { now, days: 7, limit, cache: false });
}
