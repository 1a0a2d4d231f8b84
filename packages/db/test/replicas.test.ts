import { Kysely, PostgresDialect, sql } from 'kysely';
import { ChangeFeed, ReplicaSet, createPool, freePort, lsnValue, readsFromReplica, type Database } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';

// What a host does with DATABASE_READ_URL when no replica can be read: a server that is not a
// standby, or nothing listening. (A real standby, paused and resumed, is test-e2e/replicas.test.ts.)
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

/** A database handle whose connections the set hands out, as openServiceDb builds it. */
function routed(urls: string[]) {
  const replicas = new ReplicaSet(createPool(t.url, { maxConnections: 2 }), urls, { maxLagMs: 1000, changes: feed });
  feed.readRoute = replicas;
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: () => replicas.start() }) });
  return { replicas, db };
}

const standbyOf = (db: Kysely<Database>) => sql<{ standby: boolean }>`SELECT pg_is_in_recovery() AS standby`.execute(db);

describe('read replicas', () => {
  it('orders WAL positions as PostgreSQL prints them', () => {
    expect(lsnValue('0/16B3748')).toBe(0x16b3748n);
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
  });

  it('never reads a server that is not a standby, and stamps its calls as the primary', async () => {
    // The primary itself named as a replica: a promoted copy would look the same.
    const { replicas, db } = routed([t.url]);
    try {
      await db.selectFrom('pros').select('id').execute();
      expect(replicas.status()).toEqual([expect.objectContaining({ reachable: false, fresh: false })]);
      const stamp = await readsFromReplica(async () => feed.stamp());
      expect(stamp).toBe(feed.stamp());
    } finally {
      feed.readRoute = null;
      await db.destroy();
    }
  });

  it('answers from the primary when a replica is unreachable', async () => {
    const { replicas, db } = routed([`postgres://postgres@127.0.0.1:${await freePort()}/postgres`]);
    try {
      const rows = await readsFromReplica(async () => (await standbyOf(db)).rows);
      expect(rows).toEqual([{ standby: false }]);
      expect(replicas.status()[0]).toEqual(expect.objectContaining({ reachable: false, fresh: false }));
    } finally {
      feed.readRoute = null;
      await db.destroy();
    }
  });
});
