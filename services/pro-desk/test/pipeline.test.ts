import { BOOK_HOST_FEE_CENTS } from '@frontdesk/domain';
import { hashSecret, newToken } from '@frontdesk/db';
import { cancelBooking, createBooking, type BookingRequest } from '@frontdesk/use-cases';
import { proBookingRequest } from '@frontdesk/use-cases/testing';
import { proDeskHarness, newPro, validBooking, MONDAY_7AM, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await proDeskHarness();
});
afterAll(() => h.close());

/** A booking a customer made on the book host: the 5 USD fee applies. */
const customerBooking = (proId: string, start: string, name: string): BookingRequest =>
  proBookingRequest(proId, new Date(start), h.clock.now, {
    customer: { name, phone: null, email: `${name.toLowerCase()}@example.com` },
    address: '5 Elm St',
    channel: 'book',
    clientName: 'ChatGPT',
    feeCents: BOOK_HOST_FEE_CENTS,
    manageTokenHash: hashSecret(newToken()),
  });

describe('pipeline', () => {
  it('reports spend, cost per booked job, credits, book-host fees after cancellations and waivers, and jobs booked', async () => {
    h.clock.now = new Date('2026-10-20T15:00:00Z');
    const pro = await newPro(h);
    const log = (body: Record<string, unknown>) =>
      h.api
        .post('/api/v1/log_lead')
        .set(pro.auth)
        .send(body)
        .expect(200)
        .then((r) => r.body.lead_id as string);
    await log({ source: 'marketplace_1', lead_cost: 99 }); // October: not in November's report

    h.clock.now = MONDAY_7AM;
    const [m1a, m1b] = [await log({ source: 'marketplace_1', lead_cost: 20 }), await log({ source: 'marketplace_1', lead_cost: 20 })];
    await log({ source: 'marketplace_1', lead_cost: 20 });
    const m2 = await log({ source: 'marketplace_2', lead_cost: 30, zip: '94105' });
    const web = await log({ source: 'website', customer_first_name: 'Ana', bedrooms: 2, bathrooms: 1 });
    await h.api.post('/api/v1/update_lead').set(pro.auth).send({ lead_id: m1a, status: 'booked' }).expect(200);
    await h.api.post('/api/v1/update_lead').set(pro.auth).send({ lead_id: m1b, status: 'lost' }).expect(200);
    await h.api.post('/api/v1/flag_bad_lead').set(pro.auth).send({ lead_id: m2, reason: 'out_of_area' }).expect(200);
    await h.api
      .post('/api/v1/book_job')
      .set(pro.auth)
      .send(validBooking({ lead_id: web, start: '2026-11-27T09:00:00-05:00' }))
      .expect(200);

    const kept = await createBooking(h.t.db, customerBooking(pro.pro.id, '2026-11-25T14:00:00Z', 'Kim'));
    const cancelled = await createBooking(h.t.db, customerBooking(pro.pro.id, '2026-11-26T14:00:00Z', 'Lee'));
    const missed = await createBooking(h.t.db, customerBooking(pro.pro.id, '2026-11-24T14:00:00Z', 'Max'));
    await cancelBooking(h.t.db, { id: cancelled.booking.id, proId: pro.pro.id }, 'customer', h.clock.now);
    h.clock.now = new Date('2026-11-24T15:00:00Z');
    const noShow = await h.api.post('/api/v1/report_no_show').set(pro.auth).send({ booking_id: missed.booking.id }).expect(200);
    expect(noShow.body).toMatchObject({ fee_waived: true });
    expect(noShow.body.message).toMatch(/5 USD booking fee is waived/);

    const { body } = await h.api.get('/api/v1/pipeline').set(pro.auth).query({ month: '2026-11' }).expect(200);
    expect(body.leads).toMatchObject({ total: 5, spend: 90, booked: 2, lost: 1, open: 2, cost_per_booked_job: 45 });
    expect(body.leads.by_source).toEqual([
      { source: 'marketplace_1', leads: 3, spend: 60, booked: 1, lost: 1, open: 1, cost_per_booked_job: 60 },
      { source: 'marketplace_2', leads: 1, spend: 30, booked: 0, lost: 0, open: 1, cost_per_booked_job: null },
      { source: 'website', leads: 1, spend: 0, booked: 1, lost: 0, open: 0, cost_per_booked_job: 0 },
    ]);
    expect(body.possible_lead_credits).toMatchObject({ count: 1, amount: 30, leads: [{ lead_id: m2, reason: 'out_of_area', amount: 30 }] });
    const price = kept.booking.price_cents / 100;
    expect(body.customers_brought_by_service).toEqual({
      bookings: 2,
      value: 2 * price,
      cancelled: 1,
      fees_waived_for_no_shows: 1,
      fee_per_booking: 5,
      fees_due: 5,
    });
    expect(body.jobs_booked).toMatchObject({ total: 3, by_business: 1, by_customers_through_service: 2, cancelled: 1 });

    const october = await h.api.get('/api/v1/pipeline').set(pro.auth).query({ month: '2026-10' }).expect(200);
    expect(october.body.leads).toMatchObject({ total: 1, spend: 99, booked: 0, cost_per_booked_job: null });

    const defaultMonth = await h.api.get('/api/v1/pipeline').set(pro.auth).expect(200);
    expect(defaultMonth.body.month).toBe('2026-11');
    const business = await h.api.get('/api/v1/my_business').set(pro.auth).expect(200);
    expect(business.body.pipeline).toEqual(defaultMonth.body);
  });

  it.each([['2026-13'], ['2026-1'], ['Nov 2026']])('refuses month %s', async (month) => {
    const pro = await newPro(h);
    const res = await h.api.get('/api/v1/pipeline').set(pro.auth).query({ month }).expect(400);
    expect(res.body.error).toMatch(/month must be a month YYYY-MM/);
  });
});
