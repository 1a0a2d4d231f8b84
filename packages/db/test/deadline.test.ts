// A request's deadline (withDeadline in src/connect.ts) must mean "nothing of this work commits
// after it". Dropping the connection rolls back an open transaction, but a single statement
// sent on its own commits by itself: if it waits on a lock and the client has gone, the server
// must notice and cancel it rather than run it once the lock is free.
import pg from 'pg';
import { sql } from 'kysely';
import { createDb, withDeadline, type Db } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';
import { makePro } from '@frontdesk/dev-env/factories';

/** The application name of the work's connections, to find its server process by. */
const WORK = 'deadline-work';
let t: TestDatabase;
let db: Db;
beforeAll(async () => {
  t = await createTestDatabase();
  // No statement timeout: the server's own would end a waiting statement too, and hide a
  // server that never noticed its client had gone.
  db = createDb(t.url, { maxConnections: 2, applicationName: WORK, statementTimeoutMs: 0 });
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
      // The lock is held until the server has seen the client is gone and ended the statement's
      // process (no sleep guessed long enough: on a busy machine it may take longer than usual).
      // Were the statement left waiting, this would wait on until jest's timeout fails the test.
      await serverProcessGone();
      await locker.query('COMMIT');
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

/**
 * Waits until no server process of the work's connections is left (each ends once the server
 * sees its client gone). Asked each time in a transaction of its own: one sees the server's
 * activity as it was when it first looked.
 */
async function serverProcessGone(): Promise<void> {
  const left = async () =>
    (await sql`SELECT 1 FROM pg_stat_activity WHERE application_name = ${WORK} AND datname = current_database()`.execute(t.db)).rows.length;
  while ((await left()) !== 0) await new Promise((r) => setTimeout(r, 50));
}
