import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { createBooking, type BookingRequest } from '../src';
import { proBookingRequest } from '../src/testing';
import { makePro } from '@frontdesk/dev-env/factories';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

const start = new Date('2030-01-07T15:00:00Z'); // a Monday, 10:00 in New York
const request = (proId: string, over: Partial<BookingRequest> = {}) => proBookingRequest(proId, start, new Date('2030-01-01T00:00:00Z'), over);

describe('the bookings overlap rule', () => {
  it('is enforced by Postgres, travel buffer included, whatever writes the row', async () => {
    const { pro } = await makePro(t.db);
    const { booking } = await createBooking(t.db, request(pro.id));
    // Bypass the application: copy the row with a start inside the first one's buffer.
    const insertCopy = (startsAt: string, id: string) =>
      sql`INSERT INTO bookings (id, pro_id, channel, starts_at, ends_at, blocked_until, customer_name, customer_phone, address, zip, bedrooms, bathrooms, clean_type, frequency, price_cents, quote)
          SELECT ${id}, pro_id, channel, ${startsAt}::timestamptz, ${startsAt}::timestamptz + interval '1 hour', ${startsAt}::timestamptz + interval '90 minutes', customer_name, customer_phone, address, zip, bedrooms, bathrooms, clean_type, frequency, price_cents, quote
          FROM bookings WHERE id = ${booking.id}`.execute(t.db);
    const inBuffer = new Date(booking.blocked_until.getTime() - 60_000).toISOString();
    await expect(insertCopy(inBuffer, 'bk_x1')).rejects.toMatchObject({ code: '23P01' });
    // Starting exactly when the buffer ends is allowed: the ranges are half-open.
    await expect(insertCopy(booking.blocked_until.toISOString(), 'bk_x2')).resolves.toBeDefined();
  });

  it('frees the time when a booking is cancelled', async () => {
    const { pro } = await makePro(t.db);
    const { booking } = await createBooking(t.db, request(pro.id));
    await t.db.updateTable('bookings').set({ status: 'cancelled', cancelled_at: new Date() }).where('id', '=', booking.id).execute();
    await expect(createBooking(t.db, request(pro.id))).resolves.toBeDefined();
  });
});
