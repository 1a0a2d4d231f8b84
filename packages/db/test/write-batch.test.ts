import { appendEvent, appendEventLater, batchingWrites, enqueueMail, insertNotification, type Db } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';
import { makePro } from '@frontdesk/dev-env/factories';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

/** Counts the statements `work` sends on its transaction's connection. */
async function countingStatements<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<{ result: T; statements: number }> {
  let statements = 0;
  const result = await db.transaction().execute(async (trx) => {
    const counted = trx.withPlugin({
      transformQuery: (args) => args.node,
      // Once per statement sent (a query built into another is transformed, but not sent, on its own).
      transformResult: (args) => {
        statements += 1;
        return Promise.resolve(args.result);
      },
    });
    return work(counted);
  });
  return { result, statements };
}

const feed = (proId: string) => t.db.selectFrom('events').select(['seq', 'kind']).where('pro_id', '=', proId).orderBy('seq').execute();
const news = async (proId: string, to: string) => ({
  notifications: (await t.db.selectFrom('notifications').select('message').where('pro_id', '=', proId).execute()).map((n) => n.message),
  mail: (await t.db.selectFrom('outbox').select('subject').where('to_address', '=', to).execute()).map((m) => m.subject),
});

describe('batchingWrites', () => {
  it('sends a notification, an event and a mail as one statement that commits with the transaction', async () => {
    const { pro } = await makePro(t.db);
    const to = `batch-${pro.id}@example.com`;
    const now = new Date();
    const { statements } = await countingStatements(t.db, (trx) =>
      batchingWrites(trx, async () => {
        await insertNotification(trx, { proId: pro.id, bookingId: null, kind: 'booking.created', message: 'held back', now });
        await appendEventLater(trx, pro.id, { kind: 'booking.created', payload: {}, at: now });
        await enqueueMail(trx, { to, subject: 'held back too', text: '', now });
      }),
    );
    expect(statements).toBe(1);
    expect(await feed(pro.id)).toEqual([{ seq: 1, kind: 'booking.created' }]);
    expect(await news(pro.id, to)).toEqual({ notifications: ['held back'], mail: ['held back too'] });
  });

  it('writes nothing when the transaction rolls back after the writes were held', async () => {
    const { pro } = await makePro(t.db);
    const to = `rollback-${pro.id}@example.com`;
    const now = new Date();
    await expect(
      t.db.transaction().execute((trx) =>
        batchingWrites(trx, async () => {
          await insertNotification(trx, { proId: pro.id, bookingId: null, kind: 'booking.created', message: 'never', now });
          await appendEventLater(trx, pro.id, { kind: 'booking.created', payload: {}, at: now });
          await enqueueMail(trx, { to, subject: 'never', text: '', now });
          throw new Error('refused after the writes');
        }),
      ),
    ).rejects.toThrow('refused after the writes');
    expect(await feed(pro.id)).toEqual([]);
    expect(await news(pro.id, to)).toEqual({ notifications: [], mail: [] });
  });

  it('keeps the feed in the order events were made: two held events, then one appended at once, get 1, 2, 3', async () => {
    const { pro } = await makePro(t.db);
    const at = new Date();
    await t.db.transaction().execute((trx) =>
      batchingWrites(trx, async () => {
        await appendEventLater(trx, pro.id, { kind: 'booking.created', payload: {}, at });
        // The same pro's counter twice: the second event cannot share the first one's statement.
        await appendEventLater(trx, pro.id, { kind: 'booking.cancelled', payload: {}, at });
        expect(await appendEvent(trx, pro.id, { kind: 'series.created', payload: {}, at })).toBe(3);
      }),
    );
    expect(await feed(pro.id)).toEqual([
      { seq: 1, kind: 'booking.created' },
      { seq: 2, kind: 'booking.cancelled' },
      { seq: 3, kind: 'series.created' },
    ]);
  });

  it('writes at once outside a batch, as before', async () => {
    const { pro } = await makePro(t.db);
    await t.db.transaction().execute(async (trx) => {
      await appendEventLater(trx, pro.id, { kind: 'booking.created', payload: {}, at: new Date() });
      expect(await trx.selectFrom('events').select('seq').where('pro_id', '=', pro.id).execute()).toEqual([{ seq: 1 }]);
    });
  });
});
