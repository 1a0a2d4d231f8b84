import { sql } from 'kysely';
import pg from 'pg';
import { CHANGES_CHANNEL, ChangeFeed, ProMemo, insertProCheck, issueProKey } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';
import { makePro } from '@frontdesk/dev-env/factories';

let t: TestDatabase;
let feed: ChangeFeed;
beforeAll(async () => {
  t = await createTestDatabase();
  feed = await new ChangeFeed(t.url).start();
});
afterAll(async () => {
  await feed.close();
  await t.drop();
});

/** Waits (up to 10 s) for a condition the feed reaches on its own, such as listening again. */
async function eventually(done: () => boolean) {
  for (let i = 0; i < 500 && !done(); i += 1) await new Promise((r) => setTimeout(r, 20));
  return done();
}

describe('the change feed', () => {
  it('hears each kind of change to a pro once committed, and only for that pro', async () => {
    const [a, b] = [await makePro(t.db), await makePro(t.db)];
    await feed.fence(); // their creation is a change too
    expect(feed.live).toBe(true);
    let stamp = feed.stamp();
    await t.db.updateTable('pros').set({ phone: '212 555 0100' }).where('id', '=', a.pro.id).execute();
    await feed.fence();
    expect(feed.unchanged(a.pro.id, stamp)).toBe(false);
    expect(feed.unchanged(b.pro.id, stamp)).toBe(true);
    expect(feed.profilesUnchanged(stamp)).toBe(false);

    // Keys, checks and the feed's head are changes to the pro, not to its profile.
    for (const change of [
      () => issueProKey(t.db, b.pro.id),
      () => insertProCheck(t.db, { proId: b.pro.id, kind: 'website_ownership', subject: 'b.example', passed: true, checkedOn: '2026-11-20' }),
      () => sql`UPDATE pros SET event_seq = event_seq + 1 WHERE id = ${b.pro.id}`.execute(t.db),
    ]) {
      stamp = feed.stamp();
      await change();
      await feed.fence();
      expect(feed.unchanged(b.pro.id, stamp)).toBe(false);
      expect(feed.unchanged(a.pro.id, stamp)).toBe(true);
      expect(feed.profilesUnchanged(stamp)).toBe(true);
    }

    // A change rolled back is never heard.
    stamp = feed.stamp();
    await t.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('pros').set({ phone: '212 555 0199' }).where('id', '=', a.pro.id).execute();
        throw new Error('roll back');
      })
      .catch(() => {});
    await feed.fence();
    expect(feed.unchanged(a.pro.id, stamp)).toBe(true);
  });

  it('sends one fence at a time: callers arriving meanwhile share the next, sent after they came', async () => {
    const pros = await Promise.all([1, 2, 3, 4, 5, 6].map(() => makePro(t.db)));
    await feed.fence();
    // Another listener counts the fences that travel through the queue.
    const counter = new pg.Client({ connectionString: t.url });
    await counter.connect();
    let sent = 0;
    counter.on('notification', (n) => {
      if (n.payload?.startsWith('f:')) sent += 1;
    });
    await counter.query(`LISTEN ${CHANGES_CHANNEL}`);
    try {
      const [first, ...rest] = pros;
      const stamp = feed.stamp();
      await t.db.updateTable('pros').set({ phone: '212 555 0101' }).where('id', '=', first!.pro.id).execute();
      const out = feed.fence();
      // These writes commit while the first fence may already be on its way: their callers must wait for the next one.
      await Promise.all(rest.map(({ pro }) => t.db.updateTable('pros').set({ phone: '212 555 0102' }).where('id', '=', pro.id).execute()));
      const later = rest.map(() => feed.fence());
      await out;
      expect(feed.unchanged(first!.pro.id, stamp)).toBe(false);
      await Promise.all(later);
      for (const { pro } of rest) expect(feed.unchanged(pro.id, stamp)).toBe(false);
      await counter.query('SELECT 1'); // the counter has heard what was sent before this
      await eventually(() => sent >= 2);
      // The first, then (if it was back before the writes were) one more out, and one shared by the rest: never one each.
      expect(sent).toBeGreaterThanOrEqual(2);
      expect(sent).toBeLessThanOrEqual(3);
    } finally {
      await counter.end();
    }
  });

  it('keeps a read while its pro is unchanged, and reads again after a change', async () => {
    const { pro } = await makePro(t.db);
    await feed.fence();
    const memo = new ProMemo<string>(feed);
    let reads = 0;
    const read = async () => {
      reads += 1;
      const row = await t.db.selectFrom('pros').select('name').where('id', '=', pro.id).executeTakeFirstOrThrow();
      return { proId: pro.id, value: row.name };
    };
    expect(await memo.get(pro.id, read)).toBe(pro.name);
    expect(await Promise.all([memo.get(pro.id, read), memo.get(pro.id, read)])).toEqual([pro.name, pro.name]);
    expect(reads).toBe(1);
    await t.db.updateTable('pros').set({ name: 'Renamed Cleaning' }).where('id', '=', pro.id).execute();
    await feed.fence();
    expect(await memo.get(pro.id, read)).toBe('Renamed Cleaning');
    expect(reads).toBe(2);
    // Without a feed nothing is kept.
    const uncached = new ProMemo<string>(undefined);
    await uncached.get(pro.id, read);
    await uncached.get(pro.id, read);
    expect(reads).toBe(4);
  });

  it("tells a change to a pro's keys or profile from a change to its data, for what a key opened", async () => {
    const { pro } = await makePro(t.db);
    await feed.fence();
    const memo = new ProMemo<string>(feed);
    const read = async () => ({ proId: pro.id, value: pro.id });
    await memo.get('a key', read);
    expect(memo.keysUnchangedFor('a key')).toBe(true);
    expect(memo.keysUnchangedFor('another key')).toBe(false);
    // The feed's head and a check are the pro's data: what was kept is void, what a key opened is not.
    await sql`UPDATE pros SET event_seq = event_seq + 1 WHERE id = ${pro.id}`.execute(t.db);
    await insertProCheck(t.db, { proId: pro.id, kind: 'website_ownership', subject: 'keys.example', passed: true, checkedOn: '2026-11-20' });
    await feed.fence();
    expect(memo.peek('a key')).toBeUndefined();
    expect(memo.keysUnchangedFor('a key')).toBe(true);
    // A new key, or a change to the profile (as deleting the pro is), is a change for every key of it.
    for (const change of [() => issueProKey(t.db, pro.id), () => sql`UPDATE pros SET config_version = config_version + 1 WHERE id = ${pro.id}`.execute(t.db)]) {
      await memo.get('a key', read);
      expect(memo.keysUnchangedFor('a key')).toBe(true);
      await change();
      await feed.fence();
      expect(memo.keysUnchangedFor('a key')).toBe(false);
    }
  });

  it('trusts nothing while its connection is down, and nothing kept before once it listens again', async () => {
    const { pro } = await makePro(t.db);
    await feed.fence();
    const memo = new ProMemo<number>(feed);
    let reads = 0;
    const read = async () => ({ proId: pro.id, value: (reads += 1) });
    await memo.get(pro.id, read);
    const before = feed.stamp();
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'front-desk-changes' AND datname = current_database()`.execute(
      t.db,
    );
    expect(await eventually(() => !feed.live)).toBe(true);
    expect(feed.stamp()).toBeNull();
    await memo.get(pro.id, read);
    await memo.get(pro.id, read);
    expect(reads).toBe(3);
    expect(await eventually(() => feed.live)).toBe(true);
    expect(feed.unchanged(pro.id, before)).toBe(false);
    await memo.get(pro.id, read);
    await memo.get(pro.id, read);
    expect(reads).toBe(4);
  });

  it('judges many pros at once as unchanged does each, looking again only once something was heard', async () => {
    const pros = await Promise.all([1, 2, 3].map(() => makePro(t.db)));
    const ids = pros.map(({ pro }) => pro.id);
    await feed.fence();
    const stamp = feed.stamp();
    const seen = { seq: -1 };
    expect(feed.allUnchanged(ids, stamp, seen)).toBe(true);
    expect(feed.allUnchanged(ids, stamp, seen)).toBe(true);
    // A change to another pro is heard: the ids are looked at again, and still pass.
    await makePro(t.db);
    await feed.fence();
    expect(feed.allUnchanged(ids, stamp, seen)).toBe(true);
    // A change to one of them fails the whole set, every time after.
    await t.db.updateTable('pros').set({ phone: '212 555 0103' }).where('id', '=', ids[1]!).execute();
    await feed.fence();
    expect(feed.unchanged(ids[1]!, stamp)).toBe(false);
    expect(feed.allUnchanged(ids, stamp, seen)).toBe(false);
    expect(feed.allUnchanged(ids, stamp, seen)).toBe(false);
    expect(feed.allUnchanged(ids, null, { seq: -1 })).toBe(false);

    // Nothing found unchanged before the connection dropped passes after it listens again.
    const later = feed.stamp();
    const seenLater = { seq: -1 };
    expect(feed.allUnchanged(ids, later, seenLater)).toBe(true);
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'front-desk-changes' AND datname = current_database()`.execute(
      t.db,
    );
    expect(await eventually(() => !feed.live)).toBe(true);
    expect(feed.allUnchanged(ids, later, seenLater)).toBe(false);
    expect(await eventually(() => feed.live)).toBe(true);
    expect(feed.allUnchanged(ids, later, seenLater)).toBe(false);
  });
});
