// updates and pipeline (src/operations/reports.ts).
import { BOOK_HOST_FEE_CENTS, toUsd } from '@frontdesk/domain';
import { cancelBooking, createBooking, extendSeries, type BookingRequest } from '@frontdesk/use-cases';
import { proBookingRequest } from '@frontdesk/use-cases/testing';
import { appendEvent } from '@frontdesk/db';
import { proDeskHarnessPerFile, newPro, validBooking, MONDAY_7AM } from '@frontdesk/dev-env/pro-desk';

const h = proDeskHarnessPerFile();

const HOUR = 3_600_000;
const allDay = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]));
const poll = async (auth: Record<string, string>, since?: number) =>
  (
    await h.api
      .get('/api/v1/updates')
      .set(auth)
      .query(since === undefined ? {} : { since })
      .expect(200)
  ).body;

/** A booking a customer made on the book host: the 5 USD fee applies. */
const customerBooking = (proId: string, start: string, name: string): BookingRequest =>
  proBookingRequest(proId, new Date(start), h.clock.now, {
    customer: { name, phone: null, email: `${name.toLowerCase()}@example.com` },
    address: '5 Elm St',
    channel: 'book',
    clientName: 'ChatGPT',
    feeCents: BOOK_HOST_FEE_CENTS,
    manageToken: true,
  });

describe('updates', () => {
  it('reports a new booking in one sentence, with a cursor that moves past it', async () => {
    const pro = await newPro(h);
    const empty = await poll(pro.auth);
    expect(empty).toMatchObject({ events: [], cursor: 0, more: false });
    await h.api.post('/api/v1/book_job').set(pro.auth).set('X-Client-Name', 'Claude').send(validBooking()).expect(200);
    const first = await poll(pro.auth, empty.cursor);
    expect(first.events).toHaveLength(1);
    expect(first.events[0]).toMatchObject({ seq: 1, kind: 'booking.created', channel: 'pro', client_name: 'Claude', customer_name: 'Ana Lopez' });
    expect(first.events[0].message).toBe('New booking by Claude on your schedule: Ana Lopez, Tue, Nov 24, 9:00 AM EST, standard clean (2 bd / 1 ba), $125.00.');
    expect(first.cursor).toBe(1);
    expect((await poll(pro.auth, first.cursor)).events).toEqual([]);
  });

  it('reports cancellations, and without since returns the last 7 days', async () => {
    const pro = await newPro(h);
    const booked = await h.api.post('/api/v1/book_job').set(pro.auth).send(validBooking()).expect(200);
    await h.api.post('/api/v1/cancel_job').set(pro.auth).send({ booking_id: booked.body.booking_id }).expect(200);
    expect((await poll(pro.auth)).events.map((e: { kind: string }) => e.kind)).toEqual(['booking.created', 'booking.cancelled']);
    expect((await poll(pro.auth, 1)).events[0]).toMatchObject({ kind: 'booking.cancelled', cancelled_by: 'pro' });
    h.clock.now = new Date(MONDAY_7AM.getTime() + 8 * 24 * HOUR);
    const later = await poll(pro.auth);
    expect(later.events).toEqual([]);
    expect(later.cursor).toBe(2);
  });

  it('suggests polling soon during working hours, rarely outside them, at once while more waits', async () => {
    const pro = await newPro(h);
    expect((await poll(pro.auth)).next_check_in_minutes).toBe(60); // Monday 07:00, opens at 08:00
    h.clock.now = new Date(MONDAY_7AM.getTime() + 2 * HOUR);
    expect((await poll(pro.auth)).next_check_in_minutes).toBe(15);
    // Fillers of a real kind: every event the feed gives must match its kind's schema.
    const filler = (i: number) => ({
      lead_id: `lead_filler${i}`,
      source: 'website',
      lead_ref: null,
      follow_up_number: 1,
      due_at: '2026-11-23T09:00:00-05:00',
      message: `filler ${i}`,
    });
    for (let i = 0; i < 55; i += 1) await appendEvent(h.t.db, pro.pro.id, { kind: 'follow_up.due', payload: filler(i), at: h.clock.now });
    const page1 = await poll(pro.auth, 0);
    expect(page1).toMatchObject({ more: true, next_check_in_minutes: 0, cursor: 50 });
    expect(page1.events).toHaveLength(50);
    const page2 = await poll(pro.auth, page1.cursor);
    expect(page2).toMatchObject({ more: false, cursor: 55 });
    expect(page2.events.map((e: { seq: number }) => e.seq)).toEqual([51, 52, 53, 54, 55]);
  });

  it('resets a cursor that is ahead of the feed to the head and says so', async () => {
    const pro = await newPro(h);
    await h.api.post('/api/v1/book_job').set(pro.auth).send(validBooking()).expect(200);
    const res = await poll(pro.auth, 500);
    expect(res).toMatchObject({ events: [], cursor: 1, reset: true });
    expect(res.message).toMatch(/ahead of this feed/);
  });

  it.each([
    [{ since: -1 }, /since must be at least 0/],
    [{ since: '9007199254740992' }, /since must be at most 9007199254740991/],
    [{ since: 'abc' }, /since must be a whole number/],
    [{ since: 1.5 }, /since must be a whole number/],
  ])('refuses %j', async (query, message) => {
    const pro = await newPro(h);
    const res = await h.api.get('/api/v1/updates').set(pro.auth).query(query).expect(400);
    expect(res.body.error).toMatch(message);
  });

  it('writes a follow_up.due event once however many polls race to notice it', async () => {
    const pro = await newPro(h);
    const { body } = await h.api
      .post('/api/v1/log_lead')
      .set(pro.auth)
      .send({ source: 'marketplace_1', lead_ref: 'Q-1', bedrooms: 2, bathrooms: 1 })
      .expect(200);
    h.clock.now = new Date(MONDAY_7AM.getTime() + 24 * HOUR);
    const results = await Promise.all(Array.from({ length: 10 }, () => poll(pro.auth, 0)));
    for (const r of results) expect(r.events.map((e: { kind: string }) => e.kind)).toEqual(['follow_up.due']);
    const rows = await h.t.db.selectFrom('events').select(['seq', 'kind', 'dedupe_key']).where('pro_id', '=', pro.pro.id).execute();
    expect(rows).toEqual([{ seq: 1, kind: 'follow_up.due', dedupe_key: `follow_up.due:${body.lead_id}:1` }]);
    expect(results[0].events[0]).toMatchObject({ lead_id: body.lead_id, follow_up_number: 1 });
    expect(results[0].events[0].message).toMatch(/^Follow-up 1 of 2 is due for the marketplace_1 lead Q-1/);
    // The second follow-up is a new event, after the first is sent and two more days pass.
    await h.api.post('/api/v1/update_lead').set(pro.auth).send({ lead_id: body.lead_id, contacted: true }).expect(200);
    h.clock.now = new Date(h.clock.now.getTime() + 48 * HOUR);
    expect((await poll(pro.auth, 1)).events.map((e: { follow_up_number: number }) => e.follow_up_number)).toEqual([2]);
  });

  it("announces today's jobs once, from 06:00 on the day", async () => {
    const pro = await newPro(h);
    await h.api.post('/api/v1/book_job').set(pro.auth).send(validBooking()).expect(200); // Tue 09:00
    await h.api
      .post('/api/v1/book_job')
      .set(pro.auth)
      .send(validBooking({ start: '2026-11-24T13:00:00-05:00', customer_name: 'Bo' }))
      .expect(200);
    h.clock.now = new Date('2026-11-24T10:59:00Z'); // 05:59 local
    expect((await poll(pro.auth, 2)).events).toEqual([]);
    h.clock.now = new Date('2026-11-24T11:00:00Z'); // 06:00 local
    const [a, b] = await Promise.all([poll(pro.auth, 2), poll(pro.auth, 2)]);
    expect(a.events).toEqual(b.events);
    expect(a.events).toHaveLength(1);
    expect(a.events[0]).toMatchObject({ kind: 'jobs.today', date: '2026-11-24', count: 2 });
    expect(a.events[0].message).toBe('2 jobs today: 9:00 AM EST Ana Lopez (12 Grove St, Apt 3); 1:00 PM EST Bo (12 Grove St, Apt 3).');
    h.clock.now = new Date('2026-11-24T15:00:00Z');
    expect((await poll(pro.auth, 3)).events).toEqual([]);
  });
});

describe('updates under concurrent writers', () => {
  it('a poller following the cursor sees every event exactly once, in order, while 10 writers book and log leads', async () => {
    const pro = await newPro(h, { weekly_hours: allDay, min_notice_minutes: 0 });
    let writing = true;
    const writer = async (w: number) => {
      const ids: string[] = [];
      for (let k = 0; k < 4; k += 1) {
        const day = String(24 + (w % 6)).padStart(2, '0');
        const hour = String(Math.floor(w / 6) * 12 + k * 2).padStart(2, '0');
        const res = await h.api
          .post('/api/v1/book_job')
          .set(pro.auth)
          .send(validBooking({ start: `2026-11-${day}T${hour}:00:00-05:00`, customer_name: `W${w}-${k}` }));
        if (res.status === 200) ids.push(res.body.booking_id);
        else throw new Error(`writer ${w}: ${res.body.error}`);
        await h.api.post('/api/v1/log_lead').set(pro.auth).send({ source: 'website', bedrooms: 1, bathrooms: 1 }).expect(200);
      }
      return ids;
    };
    const seen: { seq: number; booking_id: string }[] = [];
    let cursor = 0;
    const poller = (async () => {
      for (;;) {
        const stillWriting = writing;
        const page = await poll(pro.auth, cursor);
        seen.push(...page.events);
        cursor = page.cursor;
        if (!stillWriting && !page.more) return;
      }
    })();
    // A failed writer ends the poll too, so the failure is this test's and not the next one's timeout.
    const booked = (await Promise.all(Array.from({ length: 10 }, (_, w) => writer(w))).finally(() => (writing = false))).flat();
    await poller;
    expect(booked).toHaveLength(40);
    expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(seen.map((e) => e.booking_id).sort()).toEqual([...booked].sort());
  });
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
    await cancelBooking(h.t.db, { by: 'customer', manageToken: cancelled.manageToken! }, h.clock.now);
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
    // The no-show is not a booked job: its fee is waived and it is worth nothing.
    expect(body.customers_brought_by_service).toEqual({
      bookings: 1,
      value: price,
      cancelled: 1,
      fees_waived_for_no_shows: 1,
      fee_per_booking: 5,
      fees_due: 5,
    });
    expect(body.jobs_booked).toMatchObject({ total: 2, by_business: 1, by_customers_through_service: 1, cancelled: 1, no_shows: 1 });

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

describe('pipeline per crew', () => {
  it('counts the jobs booked that month and their value per crew, every crew listed in crew order, a removed crew that did jobs after them', async () => {
    const pro = await newPro(h);
    const add = (name: string) =>
      h.api
        .post('/api/v1/add_crew')
        .set(pro.auth)
        .send({ name })
        .expect(200)
        .then((r) => r.body.crew_id as string);
    const [vans, idle, gone] = [await add('Vans'), await add('Idle'), await add('Gone')];
    const first = (await h.api.get('/api/v1/my_business').set(pro.auth).expect(200)).body.crews[0] as { crew_id: string; name: string };
    const book = (crewId: string, start: string) =>
      h.api
        .post('/api/v1/book_job')
        .set(pro.auth)
        .send(validBooking({ crew_id: crewId, start }))
        .expect(200)
        .then((r) => r.body as { booking_id: string; total: number });
    const a = await book(vans, '2026-11-24T09:00:00-05:00');
    await book(vans, '2026-11-25T09:00:00-05:00');
    const c = await book(first.crew_id, '2026-11-24T09:00:00-05:00');
    const cancelled = await book(first.crew_id, '2026-11-26T09:00:00-05:00');
    await h.api.post('/api/v1/cancel_job').set(pro.auth).send({ booking_id: cancelled.booking_id }).expect(200);
    const done = await book(gone, '2026-11-24T09:00:00-05:00');
    // Gone's job is over before it is removed: its count stays, under its name.
    h.clock.now = new Date('2026-11-24T16:00:00Z');
    await h.api.post('/api/v1/remove_crew').set(pro.auth).send({ crew_id: gone }).expect(200);

    const { body } = await h.api.get('/api/v1/pipeline').set(pro.auth).query({ month: '2026-11' }).expect(200);
    expect(body.jobs_booked.total).toBe(4);
    expect(body.jobs_booked.by_crew).toEqual([
      { crew_id: first.crew_id, crew_name: first.name, jobs: 1, value: c.total },
      { crew_id: vans, crew_name: 'Vans', jobs: 2, value: 2 * a.total },
      { crew_id: idle, crew_name: 'Idle', jobs: 0, value: 0 },
      { crew_id: gone, crew_name: 'Gone', jobs: 1, value: done.total },
    ]);
    const business = await h.api.get('/api/v1/my_business').set(pro.auth).expect(200);
    expect(business.body.pipeline.jobs_booked.by_crew).toEqual(body.jobs_booked.by_crew);
  });

  it('counts a booked job one way in the totals, the per-crew lines and the customers: a series once, on its first booked visit’s crew, in the month it was booked; cancelled and no-show visits add nothing', async () => {
    const pro = await newPro(h);
    const post = (op: string, body: Record<string, unknown>) => h.api.post(`/api/v1/${op}`).set(pro.auth).send(body).expect(200);
    const vans = (await post('add_crew', { name: 'Vans' })).body.crew_id as string;
    const first = (await h.api.get('/api/v1/my_business').set(pro.auth).expect(200)).body.crews[0] as { crew_id: string; name: string };
    // A weekly series on the first crew: its second visit given to Vans, its third cancelled.
    const series = (await post('book_job', validBooking({ frequency: 'weekly', crew_id: first.crew_id }))).body;
    const visits = series.series.visits as { booking_id: string }[];
    await post('assign_job', { booking_id: visits[1]!.booking_id, crew_id: vans });
    await post('cancel_job', { booking_id: visits[2]!.booking_id });
    // One job on Vans; one cancelled; a customer's booking that becomes a no-show.
    const single = (await post('book_job', validBooking({ crew_id: vans, start: '2026-11-25T09:00:00-05:00' }))).body as { total: number };
    const dropped = (await post('book_job', validBooking({ crew_id: vans, start: '2026-11-26T09:00:00-05:00' }))).body as { booking_id: string };
    await post('cancel_job', { booking_id: dropped.booking_id });
    const missed = await createBooking(h.t.db, customerBooking(pro.pro.id, '2026-11-27T15:00:00Z', 'Max'));
    h.clock.now = new Date('2026-11-27T17:00:00Z');
    await post('report_no_show', { booking_id: missed.booking.id });

    const seriesWorth = async () =>
      toUsd(
        (await h.t.db.selectFrom('bookings').select('price_cents').where('series_id', '=', series.series_id).where('status', '=', 'booked').execute()).reduce(
          (s, b) => s + b.price_cents,
          0,
        ),
      );
    const report = async (month: string) => (await h.api.get('/api/v1/pipeline').set(pro.auth).query({ month }).expect(200)).body;
    const november = await report('2026-11');
    const worth = await seriesWorth();
    expect(november.jobs_booked).toEqual({
      total: 2,
      value: worth + single.total,
      by_business: 2,
      by_customers_through_service: 0,
      cancelled: 1,
      no_shows: 1,
      by_crew: [
        { crew_id: first.crew_id, crew_name: first.name, jobs: 1, value: worth },
        { crew_id: vans, crew_name: 'Vans', jobs: 1, value: single.total },
      ],
    });
    const lines = november.jobs_booked.by_crew as { jobs: number; value: number }[];
    expect(lines.reduce((s, c) => s + c.jobs, 0)).toBe(november.jobs_booked.total);
    expect(lines.reduce((s, c) => s + c.value, 0)).toBeCloseTo(november.jobs_booked.value, 2);
    expect(november.customers_brought_by_service).toMatchObject({ bookings: 0, value: 0, cancelled: 0, fees_waived_for_no_shows: 1, fees_due: 0 });

    // December: the series adds visits as time passes; it was booked in November, so it is no job booked in December.
    h.clock.now = new Date('2026-12-20T15:00:00Z');
    expect((await extendSeries(h.t.db, h.clock.now)).booked).toBeGreaterThan(0);
    expect((await report('2026-12')).jobs_booked).toMatchObject({
      total: 0,
      value: 0,
      by_crew: [expect.objectContaining({ jobs: 0 }), expect.objectContaining({ jobs: 0 })],
    });
    expect((await report('2026-11')).jobs_booked).toMatchObject({ total: 2, value: (await seriesWorth()) + single.total });
  });
});
