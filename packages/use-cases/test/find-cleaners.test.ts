import { Kysely, PostgresDialect, sql } from 'kysely';
import { ChangeFeed, createPool, type Database } from '@frontdesk/db';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { makePro } from '@frontdesk/dev-env/factories';
import { findCleanersFor } from '../src';

// A search of a ZIP is kept while the change feed hears nothing of its pros, and callers that
// miss together share one search. These count the searches PostgreSQL is asked for (the read of
// the pros serving the ZIP that each search starts with).

let t: TestDatabase;
let changes: ChangeFeed;
let db: Kysely<Database>;
let searches = 0;
beforeAll(async () => {
  t = await createTestDatabase();
  changes = await new ChangeFeed(t.url).start();
  db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: createPool(t.url) }),
    log: (e) => {
      if (e.level === 'query' && e.query.sql.includes('service_zips @>')) searches += 1;
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
});
