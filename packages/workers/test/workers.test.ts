import { ChangeFeed } from '@frontdesk/db';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { createBooking } from '@frontdesk/use-cases';
import { proBookingRequest } from '@frontdesk/use-cases/testing';
import pino from 'pino';
import { job, makePro } from '@frontdesk/dev-env/factories';
import { startWorkers, workerList } from '../src';

// What every entry point starts with its one call: mail out of the outbox, the purge, series
// horizons, and the change feed. Opening the database starts none of them.
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

const DAY = 86_400_000;
const logger = pino({ level: 'silent' });

describe('the workers', () => {
  it('are the outbox (when mail can leave), the purge, the series horizon and the morning agendas, on their own intervals', () => {
    const transport = { send: async () => {} };
    expect(workerList(t.db, transport).map((w) => [w.name, w.everyMs])).toEqual([
      ['outbox', 2000],
      ['purge', 600_000],
      ['series', 600_000],
      ['agenda', 60_000],
    ]);
    expect(workerList(t.db, null).map((w) => w.name)).toEqual(['purge', 'series', 'agenda']);
  });

  it('start with one call: the feed listens, series roll forward on the injected clock, and stop ends both', async () => {
    const { pro } = await makePro(t.db);
    const bookedAt = new Date('2030-01-01T00:00:00Z');
    const { series } = await createBooking(t.db, proBookingRequest(pro.id, new Date('2030-01-07T15:00:00Z'), bookedAt, { job: job({ frequency: 'weekly' }) }));
    const planned = async () =>
      (await t.db.selectFrom('series').select('planned_through').where('id', '=', series!.id).executeTakeFirstOrThrow()).planned_through;
    const before = await planned();

    // Eight weeks on by the injected clock; by the machine's clock the horizon has not moved.
    const changes = new ChangeFeed(t.url);
    const workers = startWorkers({
      db: t.db,
      changes,
      logger,
      clock: () => new Date(bookedAt.getTime() + 56 * DAY),
      mail: { from: 'desk@example.com', printLocally: false },
    });
    const deadline = Date.now() + 10_000;
    while ((await planned()) === before || !changes.live) {
      if (Date.now() > deadline) throw new Error('the series worker did not run');
      await new Promise((r) => setTimeout(r, 20));
    }
    const after = await planned();
    expect(after > before).toBe(true);
    const visits = await t.db.selectFrom('bookings').select('id').where('series_id', '=', series!.id).execute();
    expect(visits.length).toBeGreaterThan(series!.visits.length);
    await workers.stop();
    expect(changes.live).toBe(false);
  });
});
