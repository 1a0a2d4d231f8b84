import { proDeskHarness, newPro, validBooking, type Harness } from './harness';

let h: Harness;
let auth: Record<string, string>;
beforeAll(async () => {
  h = await proDeskHarness();
  ({ auth } = await newPro(h));
});
afterAll(() => h.close());

const get = (op: string, query: Record<string, string | number | boolean>) => h.api.get(`/api/v1/${op}`).set(auth).query(query);
const post = (op: string, body: unknown) =>
  h.api
    .post(`/api/v1/${op}`)
    .set(auth)
    .send(body as object);

describe('my_business', () => {
  it('shows the profile, prices, add-ons, service ZIPs, hours and booking page', async () => {
    const { body } = await h.api.get('/api/v1/my_business').set(auth).expect(200);
    expect(body).toMatchObject({
      timezone: 'America/New_York',
      service_zips: ['10001'],
      prices: { currency: 'USD', base: 60, per_bedroom: 20, per_bathroom: 25, per_half_bathroom: 12.5, minimum: 120 },
      working_hours: { monday: ['08:00-17:00'], sunday: [] },
      min_notice_hours: 12,
    });
    expect(body.booking_page).toBe(`http://book.test/book/${body.pro_id}`);
    expect(body.add_ons.map((a: { name: string }) => a.name)).toEqual(['cabinets', 'fridge', 'laundry', 'oven', 'windows']);
  });
});

describe('quote_job', () => {
  it('prices from the list with line items and estimated hours', async () => {
    const { body } = await get('quote_job', { bedrooms: 3, bathrooms: 2.5, add_ons: 'oven,fridge', pets: true }).expect(200);
    expect(body.total).toBe(60 + 60 + 62.5 + 35 + 35 + 15);
    expect(body.line_items.reduce((s: number, l: { amount: number }) => s + l.amount, 0)).toBeCloseTo(body.total, 2);
    expect(body.job.add_ons).toEqual(['oven', 'fridge']);
    expect(body.estimated_hours).toBeGreaterThan(0);
    expect(body.summary).toMatch(/^Standard clean, 3 bedrooms, 2.5 bathrooms: \$267.50/);
  });

  it('says whether a recurring first visit is discounted', async () => {
    const { body } = await get('quote_job', { bedrooms: 2, bathrooms: 1, frequency: 'weekly' }).expect(200);
    expect(body.recurring).toMatchObject({ frequency: 'weekly', discount_pct: 20, first_visit: 'discounted' });
  });

  it('refuses an add-on the business does not offer, listing the offered ones', async () => {
    const { body } = await get('quote_job', { bedrooms: 2, bathrooms: 1, add_ons: 'garage' }).expect(400);
    expect(body.error).toMatch(/does not offer the add-on "garage"; add-ons offered: cabinets, fridge, laundry, oven, windows/);
  });

  it.each([
    [{ bathrooms: 1 }, /bedrooms is required/],
    [{ bedrooms: 2 }, /bathrooms is required/],
    [{ bedrooms: -1, bathrooms: 1 }, /bedrooms must be at least 0/],
    [{ bedrooms: 11, bathrooms: 1 }, /bedrooms must be at most 10/],
    [{ bedrooms: 2.5, bathrooms: 1 }, /bedrooms must be a whole number/],
    [{ bedrooms: 'two', bathrooms: 1 }, /bedrooms must be a whole number/],
    [{ bedrooms: 2, bathrooms: 0.5 }, /bathrooms must be at least 1/],
    [{ bedrooms: 2, bathrooms: 10.5 }, /bathrooms must be at most 10/],
    [{ bedrooms: 2, bathrooms: 1.25 }, /bathrooms must be a whole or half number/],
    [{ bedrooms: 2, bathrooms: 1, sqft: 199 }, /sqft must be at least 200/],
    [{ bedrooms: 2, bathrooms: 1, sqft: 15001 }, /sqft must be at most 15000/],
    [{ bedrooms: 2, bathrooms: 1, clean_type: 'sparkly' }, /clean_type must be one of: standard, deep, move_out, turnover/],
    [{ bedrooms: 2, bathrooms: 1, frequency: 'daily' }, /frequency must be one of: once, weekly, biweekly, monthly/],
    [{ bedrooms: 2, bathrooms: 1, pets: 'maybe' }, /pets must be true or false/],
    [{ bedrooms: 2, bathrooms: 1, colour: 'blue' }, /colour is not a parameter of this operation/],
  ])('refuses %j with a sentence naming the field', async (query, message) => {
    const { body } = await get('quote_job', query as Record<string, string | number>).expect(400);
    expect(body.error).toMatch(message);
  });
});

describe('open_times', () => {
  it('lists 7 days by default from today in the pro zone, with local offsets and labels', async () => {
    const { body } = await get('open_times', { bedrooms: 2, bathrooms: 1 }).expect(200);
    expect(body.from).toBe('2026-11-23');
    expect(body.days).toBe(7);
    // Now is Monday 07:00; with 12 h notice the first start is Tuesday 08:00.
    expect(body.open_times[0]).toEqual({
      start: '2026-11-24T08:00:00-05:00',
      end: '2026-11-24T09:15:00-05:00',
      label: 'Tue, Nov 24, 8:00 AM EST',
    });
    const days = new Set(body.open_times.map((t: { start: string }) => t.start.slice(0, 10)));
    expect([...days]).toEqual(['2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28']);
  });

  it('honours date, days, start_after and finish_by', async () => {
    const { body } = await get('open_times', { bedrooms: 2, bathrooms: 1, date: '2026-11-25', days: 1, start_after: '10:00', finish_by: '13:00' }).expect(200);
    expect(body.open_times.map((t: { start: string }) => t.start)).toEqual([
      '2026-11-25T10:00:00-05:00',
      '2026-11-25T10:30:00-05:00',
      '2026-11-25T11:00:00-05:00',
      '2026-11-25T11:30:00-05:00',
    ]);
    const wide = await get('open_times', { bedrooms: 2, bathrooms: 1, days: 21 }).expect(200);
    expect(wide.body.open_times.at(-1).start.slice(0, 10)).toBe('2026-12-12');
  });

  it.each([
    [{ days: 0 }, /days must be at least 1/],
    [{ days: 22 }, /days must be at most 21/],
    [{ date: '11/25/2026' }, /date must be a date YYYY-MM-DD/],
    [{ date: '2026-02-30' }, /not a real calendar day/],
    [{ start_after: '9:00' }, /start_after must be a 24-hour local time HH:MM/],
    [{ finish_by: '24:00' }, /finish_by must be a 24-hour local time HH:MM/],
    [{ start_after: '14:00', finish_by: '10:00' }, /finish_by \(10:00\) must be later than start_after \(14:00\)/],
  ])('refuses %j', async (extra, message) => {
    const { body } = await get('open_times', { bedrooms: 2, bathrooms: 1, ...extra }).expect(400);
    expect(body.error).toMatch(message);
  });
});

describe('book_job', () => {
  it('books an open start, records the assistant, and the job shows in the schedule', async () => {
    const pro = await newPro(h);
    const res = await h.api
      .post('/api/v1/book_job')
      .set(pro.auth)
      .set('X-Client-Name', 'Claude')
      .send(validBooking({ add_ons: ['oven'] }))
      .expect(200);
    expect(res.body).toMatchObject({
      status: 'booked',
      start: '2026-11-24T09:00:00-05:00',
      label: 'Tue, Nov 24, 9:00 AM EST',
      channel: 'pro',
      client_name: 'Claude',
      fee: 0,
      total: 160,
      customer: { name: 'Ana Lopez', phone: '(212) 555-0100', email: null },
    });
    expect(res.body.booking_id).toMatch(/^bk_[0-9a-z]{14}$/);
    const sched = await h.api.get('/api/v1/schedule').set(pro.auth).expect(200);
    expect(sched.body.jobs).toHaveLength(1);
    expect(sched.body.jobs[0]).toMatchObject({ booking_id: res.body.booking_id, address: '12 Grove St, Apt 3', client_name: 'Claude' });
    const events = await h.t.db.selectFrom('events').select(['seq', 'kind', 'payload']).where('pro_id', '=', pro.pro.id).execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ seq: 1, kind: 'booking.created', payload: { booking_id: res.body.booking_id, client_name: 'Claude', channel: 'pro' } });
  });

  it('reads a start without an offset as local time', async () => {
    const pro = await newPro(h);
    const res = await h.api
      .post('/api/v1/book_job')
      .set(pro.auth)
      .send(validBooking({ start: '2026-11-24T13:00' }))
      .expect(200);
    expect(res.body.start).toBe('2026-11-24T13:00:00-05:00');
  });

  it.each([
    ['customer_name', { customer_name: undefined }, /customer_name is required/],
    ['address', { address: undefined }, /address is required/],
    ['zip', { zip: undefined }, /zip is required/],
    ['start', { start: undefined }, /start is required/],
    ['bedrooms', { bedrooms: undefined }, /bedrooms is required/],
    ['bathrooms', { bathrooms: undefined }, /bathrooms is required/],
    ['phone or email', { customer_phone: undefined }, /Give at least one of customer_phone or customer_email/],
    ['name length', { customer_name: 'x'.repeat(101) }, /customer_name must be at most 100 characters long/],
    ['empty name', { customer_name: '' }, /customer_name must not be empty/],
    ['blank name', { customer_name: '   ' }, /customer_name must not be blank/],
    ['phone length', { customer_phone: '1'.repeat(31) }, /customer_phone must be at most 30 characters long/],
    ['phone form', { customer_phone: 'call me' }, /customer_phone "call me" is not a phone number/],
    ['email length', { customer_email: `${'a'.repeat(195)}@x.com` }, /customer_email must be at most 200 characters long/],
    ['email form', { customer_email: 'ana-at-example' }, /customer_email "ana-at-example" is not an email address/],
    ['short address', { address: 'ab' }, /address must be at least 3 characters long/],
    ['long address', { address: 'a'.repeat(301) }, /address must be at most 300 characters long/],
    ['zip form', { zip: '1234' }, /zip must be exactly 5 digits/],
    ['notes length', { notes: 'n'.repeat(501) }, /notes must be at most 500 characters long/],
    ['unknown field', { colour: 'blue' }, /colour is not a field of this operation/],
    ['clean type', { clean_type: 'sparkly' }, /clean_type must be one of/],
    ['add_ons type', { add_ons: 'oven' }, /add_ons must be a list/],
    ['start form', { start: 'next tuesday 9am' }, /start must be an ISO 8601 date-time/],
    ['unknown lead', { lead_id: 'lead_nope' }, /No lead with id lead_nope/],
  ])('refuses a bad %s and writes nothing', async (_what, over, message) => {
    const pro = await newPro(h);
    const res = await h.api.post('/api/v1/book_job').set(pro.auth).send(validBooking(over));
    expect([400, 404]).toContain(res.status);
    expect(res.body.error).toMatch(message);
    const rows = await h.t.db.selectFrom('bookings').select('id').where('pro_id', '=', pro.pro.id).execute();
    expect(rows).toEqual([]);
  });

  it.each([
    ['outside hours', '2026-11-24T16:00:00-05:00', /outside working hours: a 75-minute job must start and end within 08:00-17:00/],
    ['too soon', '2026-11-23T15:00:00-05:00', /too soon: this business needs 12 hours' notice/],
    ['in the past', '2026-11-20T09:00:00-05:00', /in the past/],
    ['a closed day', '2026-11-29T09:00:00-05:00', /outside working hours: this business is closed on Sundays\./],
    ['off the step', '2026-11-24T09:10:00-05:00', /not one of the offered start times/],
  ])('refuses a start %s, saying why', async (_what, start, message) => {
    const pro = await newPro(h);
    const { body } = await h.api.post('/api/v1/book_job').set(pro.auth).send(validBooking({ start })).expect(400);
    expect(body.error).toMatch(message);
  });

  it('refuses a start that overlaps a live booking or its travel buffer, and suggests open times', async () => {
    const pro = await newPro(h);
    await h.api.post('/api/v1/book_job').set(pro.auth).send(validBooking()).expect(200);
    // 09:00-10:15 plus a 30 minute buffer: 10:30 is taken, 11:00 is open.
    h.clock.now = new Date(h.clock.now.getTime() + 5 * 60_000);
    const { body } = await h.api
      .post('/api/v1/book_job')
      .set(pro.auth)
      .send(validBooking({ start: '2026-11-24T10:30:00-05:00' }))
      .expect(400);
    expect(body.error).toMatch(/was just taken|is taken/);
    await h.api
      .post('/api/v1/book_job')
      .set(pro.auth)
      .send(validBooking({ start: '2026-11-24T11:00:00-05:00' }))
      .expect(200);
  });

  it('links a lead and marks it booked', async () => {
    const pro = await newPro(h);
    await h.t.db
      .insertInto('leads')
      .values({
        id: 'lead_link1',
        pro_id: pro.pro.id,
        source: 'website',
        lead_ref: null,
        customer_first_name: 'Ana',
        contact: null,
        zip: null,
        bedrooms: 2,
        bathrooms: 1,
        clean_type: 'standard',
        sqft: null,
        frequency: 'once',
        add_ons: [],
        pets: false,
        last_follow_up_at: null,
        quote_total_cents: null,
        quote: null,
        notes: null,
        flag_reason: null,
        flag_evidence: null,
        flagged_at: null,
      })
      .execute();
    const res = await h.api
      .post('/api/v1/book_job')
      .set(pro.auth)
      .send(validBooking({ lead_id: 'lead_link1' }))
      .expect(200);
    expect(res.body.lead_id).toBe('lead_link1');
    const lead = await h.t.db.selectFrom('leads').select('status').where('id', '=', 'lead_link1').executeTakeFirstOrThrow();
    expect(lead.status).toBe('booked');
  });
});

describe('cancel_job', () => {
  it('cancels once: a second cancel is refused and the job stays cancelled once', async () => {
    const pro = await newPro(h);
    const booked = await h.api.post('/api/v1/book_job').set(pro.auth).send(validBooking()).expect(200);
    const first = await h.api.post('/api/v1/cancel_job').set(pro.auth).send({ booking_id: booked.body.booking_id }).expect(200);
    expect(first.body).toMatchObject({ status: 'cancelled', fee: 0, customer_notified: false });
    expect(first.body.message).toMatch(/has NOT been told/);
    const second = await h.api.post('/api/v1/cancel_job').set(pro.auth).send({ booking_id: booked.body.booking_id }).expect(400);
    expect(second.body.error).toMatch(/already cancelled/);
    const events = await h.t.db.selectFrom('events').select('kind').where('pro_id', '=', pro.pro.id).orderBy('seq').execute();
    expect(events.map((e) => e.kind)).toEqual(['booking.created', 'booking.cancelled']);
    const sched = await h.api.get('/api/v1/schedule').set(pro.auth).expect(200);
    expect(sched.body.jobs).toEqual([]);
    // The time is open again.
    await h.api.post('/api/v1/book_job').set(pro.auth).send(validBooking()).expect(200);
  });

  it('answers 404 for an unknown booking_id and 400 without one', async () => {
    const { body } = await post('cancel_job', { booking_id: 'bk_unknown' }).expect(404);
    expect(body.error).toMatch(/No booking with id bk_unknown/);
    await post('cancel_job', {}).expect(400);
  });

  it('refuses a job that has already started', async () => {
    const pro = await newPro(h);
    const booked = await h.api.post('/api/v1/book_job').set(pro.auth).send(validBooking()).expect(200);
    const saved = h.clock.now;
    h.clock.now = new Date('2026-11-24T14:30:00Z');
    try {
      const { body } = await h.api.post('/api/v1/cancel_job').set(pro.auth).send({ booking_id: booked.body.booking_id }).expect(400);
      expect(body.error).toMatch(/has started cannot be cancelled/);
    } finally {
      h.clock.now = saved;
    }
  });
});

describe('schedule', () => {
  it('returns unread notifications once and marks them read', async () => {
    const pro = await newPro(h);
    await h.t.db
      .insertInto('notifications')
      .values({ id: 'ntf_1', pro_id: pro.pro.id, booking_id: null, kind: 'booking.created', message: 'New booking by ChatGPT', read_at: null })
      .execute();
    const first = await h.api.get('/api/v1/schedule').set(pro.auth).expect(200);
    expect(first.body.notifications).toMatchObject([{ id: 'ntf_1', message: 'New booking by ChatGPT' }]);
    const second = await h.api.get('/api/v1/schedule').set(pro.auth).expect(200);
    expect(second.body.notifications).toEqual([]);
  });
});
