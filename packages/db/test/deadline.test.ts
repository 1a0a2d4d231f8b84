// A request's deadline (withDeadline in src/connect.ts) must mean "nothing of this work commits
// after it". Dropping the connection rolls back an open transaction, but a single statement
// sent on its own commits by itself: if it waits on a lock and the client has gone, the server
// must notice and cancel it rather than run it once the lock is free.
import pg from 'pg';
import { createDb, withDeadline, type Db } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';
import { makePro } from '@frontdesk/dev-env/factories';

let t: TestDatabase;
let db: Db;
beforeAll(async () => {
  t = await createTestDatabase();
  db = createDb(t.url, { maxConnections: 2 });
});
afterAll(async () => {
  await db.destroy();
  await t.drop();
});

describe('work bounded by a deadline', () => {
  it('does not commit a lone statement that was still waiting on a lock when the deadline came', async () => {
    const { pro } = await makePro(t.db);
    const locker = new pg.Client({ connectionString: t.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT id FROM pros WHERE id = $1 FOR UPDATE', [pro.id]);
      const write = withDeadline(Date.now() + 400, () => db.updateTable('pros').set({ phone: '212 555 0199' }).where('id', '=', pro.id).execute());
      await expect(write).rejects.toThrow('Query read timeout');
      // The lock is held well past the time the server takes to see the client is gone.
      await new Promise((r) => setTimeout(r, 2500));
      await locker.query('COMMIT');
      await new Promise((r) => setTimeout(r, 300));
      const row = await t.db.selectFrom('pros').select('phone').where('id', '=', pro.id).executeTakeFirstOrThrow();
      expect(row.phone).toBe(pro.phone);
      // The pool goes on with a fresh connection.
      await db.updateTable('pros').set({ phone: '212 555 0142' }).where('id', '=', pro.id).execute();
      expect((await t.db.selectFrom('pros').select('phone').where('id', '=', pro.id).executeTakeFirstOrThrow()).phone).toBe('212 555 0142');
    } finally {
      await locker.end();
    }
  });
});
