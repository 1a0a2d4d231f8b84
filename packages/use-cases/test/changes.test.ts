import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { cancelBooking, createBooking, managedBooking, rescheduleBooking, type BookingRequest } from '../src';
import { proBookingRequest } from '../src/testing';
import { job, makePro } from '@frontdesk/dev-env/factories';

// Cancelling and moving a booking, by the business (its id) or by the customer (the manage
// token, and a visit of its series), through the use cases alone, on a real database.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

const now = new Date('2030-01-01T00:00:00Z');
const monday10 = new Date('2030-01-07T15:00:00Z'); // 10:00 in New York
const customer = (proId: string, over: Partial<BookingRequest> = {}) =>
  proBookingRequest(proId, monday10, now, { channel: 'book', feeCents: 500, manageToken: true, ...over });

describe('a change by the business', () => {
  it('finds the job by id on its own schedule only', async () => {
    const a = await makePro(t.db);
    const b = await makePro(t.db);
    const { booking } = await createBooking(t.db, proBookingRequest(a.pro.id, monday10, now));
    await expect(cancelBooking(t.db, { by: 'pro', proId: b.pro.id, bookingId: booking.id }, now)).rejects.toThrow(`No booking with id ${booking.id}`);
    const done = await cancelBooking(t.db, { by: 'pro', proId: a.pro.id, bookingId: booking.id }, now);
    expect(done.booking).toMatchObject({ status: 'cancelled', cancelled_by: 'pro' });
    await expect(cancelBooking(t.db, { by: 'pro', proId: a.pro.id, bookingId: booking.id }, now)).rejects.toThrow(/already cancelled/);
  });

  it('moves a job to an open start and keeps its price; a start that is not open changes nothing', async () => {
    const { pro } = await makePro(t.db);
    const { booking } = await createBooking(t.db, proBookingRequest(pro.id, monday10, now));
    const moved = await rescheduleBooking(t.db, { by: 'pro', proId: pro.id, bookingId: booking.id }, { start: '2030-01-08T13:00:00', now });
    expect(moved.booking.starts_at.toISOString()).toBe('2030-01-08T18:00:00.000Z');
    expect(moved.booking.price_cents).toBe(booking.price_cents);
    await expect(rescheduleBooking(t.db, { by: 'pro', proId: pro.id, bookingId: booking.id }, { start: '2030-01-08T03:00:00', now })).rejects.toThrow(
      /nearest open times/,
    );
  });
});

describe('a change by the customer', () => {
  it('opens the booking by its manage token, shown once and never stored', async () => {
    const { pro } = await makePro(t.db);
    const booked = await createBooking(t.db, customer(pro.id));
    expect(booked.manageToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(booked.booking.manage_token_hash).not.toEqual(Buffer.from(booked.manageToken!));
    const opened = await managedBooking(t.db, booked.manageToken!, now);
    expect(opened).toMatchObject({ booking: { id: booked.booking.id }, pro: { id: pro.id }, visits: [] });
    expect(opened.pro.created_at).toBeInstanceOf(Date);
    await expect(
      managedBooking(
        t.db,
        booked.manageToken!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        now,
      ),
    ).rejects.toThrow('No booking with that manage_token. Check that it was copied whole.');
    const cancelled = await cancelBooking(t.db, { by: 'customer', manageToken: booked.manageToken! }, now);
    expect(cancelled.booking).toMatchObject({ status: 'cancelled', cancelled_by: 'customer' });
  });

  it("acts on another visit of the token's series, never on a visit of another booking", async () => {
    const { pro } = await makePro(t.db);
    const series = await createBooking(t.db, customer(pro.id, { job: job({ frequency: 'weekly' }) }));
    const other = await createBooking(t.db, customer(pro.id, { start: new Date('2030-01-07T20:00:00Z') }));
    const visits = series.series!.visits;
    expect(visits.length).toBeGreaterThan(3);
    const third = visits[2]!;
    const done = await cancelBooking(t.db, { by: 'customer', manageToken: series.manageToken!, visitId: third.id }, now);
    expect(done.booking.id).toBe(third.id);
    await expect(cancelBooking(t.db, { by: 'customer', manageToken: other.manageToken!, visitId: visits[1]!.id }, now)).rejects.toThrow(
      `No visit ${visits[1]!.id} in the series`,
    );
    // and_following from the second visit ends the series: every booked visit after it goes too.
    const ended = await cancelBooking(t.db, { by: 'customer', manageToken: series.manageToken!, visitId: visits[1]!.id }, now, { andFollowing: true });
    expect(ended.followingCancelled).toBe(visits.length - 3);
    const left = await managedBooking(t.db, series.manageToken!, now);
    expect(left.visits.filter((v) => v.status === 'booked').map((v) => v.id)).toEqual([visits[0]!.id]);
  });

  it('moves a visit and every later one with and_following, or nothing when one cannot land', async () => {
    const { pro } = await makePro(t.db);
    const series = await createBooking(t.db, customer(pro.id, { job: job({ frequency: 'weekly' }) }));
    const count = series.series!.visits.length;
    const moved = await rescheduleBooking(
      t.db,
      { by: 'customer', manageToken: series.manageToken! },
      { start: '2030-01-08T11:00:00', andFollowing: true, now },
    );
    expect(moved.followingMoved).toBe(count - 1);
    const after = await managedBooking(t.db, series.manageToken!, now);
    expect(after.visits.every((v) => new Date(v.starts_at).getUTCDay() === 2)).toBe(true);
    // 23:00 is outside working hours: the whole move is refused and every visit stays.
    await expect(
      rescheduleBooking(t.db, { by: 'customer', manageToken: series.manageToken! }, { start: '2030-01-09T23:00:00', andFollowing: true, now }),
    ).rejects.toThrow();
    expect((await managedBooking(t.db, series.manageToken!, now)).visits.map((v) => v.starts_at)).toEqual(after.visits.map((v) => v.starts_at));
  });
});
