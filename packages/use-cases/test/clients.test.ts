import { ChangeFeed } from '@frontdesk/db';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { createBooking, listClients, updateClientNotes } from '../src';
import { proBookingRequest } from '../src/testing';
import { makePro } from '@frontdesk/dev-env/factories';

// The client list is kept in memory between calls while the change feed hears nothing of the
// business; these are what it must still get right with nothing written: time passing a visit's
// start, and the year its labels leave out ending. Writes by other processes: test-e2e/caches.

let t: TestDatabase;
let changes: ChangeFeed;
beforeAll(async () => {
  t = await createTestDatabase();
  changes = await new ChangeFeed(t.url).start();
});
afterAll(async () => {
  await changes.close();
  await t.drop();
});

const now = new Date('2030-01-02T12:00:00Z');
const monday10 = new Date('2030-01-07T15:00:00Z'); // 10:00 in New York

describe('list_clients kept between calls', () => {
  it('moves a visit from next to last once its start passes, and names its year once that year is over, with nothing written', async () => {
    const { pro } = await makePro(t.db);
    await createBooking(t.db, proBookingRequest(pro.id, monday10, now, { customer: { name: 'Ana Ruiz', phone: '(212) 555-0100', email: null } }));
    await changes.fence();
    const list = (at: Date) => listClients(t.db, pro, {}, { now: at, changes });

    const before = await list(now);
    expect(before.clients).toMatchObject([{ name: 'Ana Ruiz', booked_jobs: 1, next_visit: 'Mon, Jan 7, 10:00 AM EST', last_visit: null }]);
    expect(await list(new Date(monday10.getTime() - 1))).toBe(before); // kept: the same answer, not read again
    // Notes are not on the list: saving them keeps the list.
    await updateClientNotes(t.db, pro, { client_id: before.clients[0]!.client_id, notes: 'Gate code 4411' }, now);
    await changes.fence();
    expect(await list(now)).toBe(before);

    const after = await list(new Date(monday10.getTime() + 1));
    expect(after.clients).toMatchObject([{ booked_jobs: 1, next_visit: null, last_visit: 'Mon, Jan 7, 10:00 AM EST' }]);
    expect(await list(new Date('2030-12-31T12:00:00Z'))).toBe(after);
    expect((await list(new Date('2031-01-01T06:00:00Z'))).clients).toMatchObject([{ last_visit: 'Mon, Jan 7, 2030, 10:00 AM EST' }]);
  });

  it('answers a search and a later page apart from the first page', async () => {
    const { pro } = await makePro(t.db);
    for (const [i, name] of ['Bo Chen', 'Cy Diaz', 'Di Ellis'].entries()) {
      const start = new Date(monday10.getTime() + i * 86_400_000);
      await createBooking(t.db, proBookingRequest(pro.id, start, now, { customer: { name, phone: `(212) 555-01${i}${i}`, email: null } }));
    }
    await changes.fence();
    const first = await listClients(t.db, pro, { limit: 2 }, { now, changes });
    expect(first.clients.map((c) => c.name)).toEqual(['Bo Chen', 'Cy Diaz']);
    const second = await listClients(t.db, pro, { limit: 2, cursor: first.next_cursor! }, { now, changes });
    expect(second).toMatchObject({ count: 1, clients: [{ name: 'Di Ellis' }], next_cursor: null });
    expect((await listClients(t.db, pro, { search: '555-0111' }, { now, changes })).clients.map((c) => c.name)).toEqual(['Cy Diaz']);
    expect(await listClients(t.db, pro, { limit: 2 }, { now, changes })).toBe(first);
  });
});
