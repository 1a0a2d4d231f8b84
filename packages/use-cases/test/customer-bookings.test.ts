import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { accountBookings, bookForCustomer, managedBooking, renewManageToken, type CustomerBookingInput, type CustomerCaller } from '../src';
import { makePro } from '@frontdesk/dev-env/factories';

// A customer booking on the book host, through the use case the operation and the booking page share.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

const now = new Date('2030-01-01T00:00:00Z');
const nobody: CustomerCaller = { user: { name: null, email: null, phone: null }, accountEmail: null, clientName: null };
const input = (cleaner: string, over: Partial<CustomerBookingInput> = {}): CustomerBookingInput => ({
  cleaner_id: cleaner,
  start: '2030-01-07T10:00:00-05:00',
  bedrooms: 2,
  bathrooms: 1,
  address: '1 Main St',
  zip: '10001',
  ...over,
});

describe('bookForCustomer', () => {
  it("takes the customer's details from the fields, else from what the assistant knows, else the account's address", async () => {
    const { pro } = await makePro(t.db);
    const caller = { user: { name: 'Rosa', email: null, phone: '(212) 555-0177' }, accountEmail: 'rosa@example.com', clientName: 'Claude' };
    const booked = await bookForCustomer(t.db, caller, input(pro.id), now);
    expect(booked.contact).toMatchObject({ name: 'Rosa', phone: '(212) 555-0177', email: 'rosa@example.com' });
    expect(booked.booking).toMatchObject({ channel: 'book', client_name: 'Claude', fee_cents: 500, account_email: 'rosa@example.com' });
    expect((await accountBookings(t.db, 'rosa@example.com')).map((b) => b.id)).toEqual([booked.booking.id]);
  });

  it('refuses without a name or a way to reach the customer, a ZIP the cleaner does not serve, and a changed price', async () => {
    const { pro } = await makePro(t.db);
    await expect(bookForCustomer(t.db, nobody, input(pro.id), now)).rejects.toThrow('customer_name is required');
    await expect(bookForCustomer(t.db, nobody, input(pro.id, { customer_name: 'Bo' }), now)).rejects.toThrow('Give customer_phone or customer_email');
    const bo = { customer_name: 'Bo', customer_email: 'bo@example.com' };
    await expect(bookForCustomer(t.db, nobody, input(pro.id, { ...bo, zip: '90210' }), now)).rejects.toThrow('does not serve ZIP 90210');
    await expect(bookForCustomer(t.db, nobody, input(pro.id, { ...bo, expected_total: 1 }), now)).rejects.toThrow('The price changed');
    await expect(bookForCustomer(t.db, nobody, input('pro_nobody', bo), now)).rejects.toThrow('No cleaner with id pro_nobody');
  });

  it('gives a retried booking a new manage token and retires the lost one', async () => {
    const { pro } = await makePro(t.db);
    const booked = await bookForCustomer(t.db, nobody, input(pro.id, { customer_name: 'Bo', customer_email: 'bo@example.com' }), now);
    const fresh = await renewManageToken(t.db, booked.booking.id);
    await expect(managedBooking(t.db, booked.manageToken, now)).rejects.toThrow('No booking with that manage_token');
    expect((await managedBooking(t.db, fresh, now)).booking.id).toBe(booked.booking.id);
  });
});
