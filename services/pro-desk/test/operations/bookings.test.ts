// book_job, cancel_job and report_no_show (src/operations/bookings.ts): refusals name the real reason
// and the nearest real alternatives.
import { proDeskHarnessPerFile, newPro, validBooking } from '@frontdesk/dev-env/pro-desk';
import { listenOn, mcpClient } from '@frontdesk/dev-env/mcp-client';
import { labelledStarts, startsOf } from '@frontdesk/domain';

const h = proDeskHarnessPerFile();
/** One business shared by this file's tests of its own schedule. */
let auth: Record<string, string>;
beforeAll(async () => {
  ({ auth } = await newPro(h));
});

const post = (op: string, body: unknown) =>
  h.api
    .post(`/api/v1/${op}`)
    .set(auth)
    .send(body as object);

/** book_job with a business's credentials: validBooking() with the fields given. */
const bookJob = (as: Record<string, string>, over: Record<string, unknown> = {}) => h.api.post('/api/v1/book_job').set(as).send(validBooking(over));

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
    const res = await bookJob(pro.auth, { start: '2026-11-24T13:00' }).expect(200);
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
    const { body } = await bookJob(pro.auth, { start: '2026-11-24T10:30:00-05:00' }).expect(400);
    expect(body.error).toMatch(/was just taken|is taken/);
    await bookJob(pro.auth, { start: '2026-11-24T11:00:00-05:00' }).expect(200);
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
    const res = await bookJob(pro.auth, { lead_id: 'lead_link1' }).expect(200);
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

describe('book_job under a race', () => {
  it('20 concurrent requests for one slot produce exactly one booking; every loser hears it was just taken', async () => {
    const pro = await newPro(h);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => bookJob(pro.auth, { customer_name: `Racer ${i}` })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    for (const loser of results.filter((r) => r.status === 400)) {
      expect(loser.body.error).toMatch(/was just taken by another booking/);
    }
    const rows = await h.t.db.selectFrom('bookings').select('id').where('pro_id', '=', pro.pro.id).execute();
    expect(rows).toHaveLength(1);
    const events = await h.t.db.selectFrom('events').select('seq').where('pro_id', '=', pro.pro.id).execute();
    expect(events.map((e) => e.seq)).toEqual([1]);
  });

  it('overlapping (not identical) starts raced together also leave one booking', async () => {
    const pro = await newPro(h);
    const starts = ['09:00', '09:30', '10:00', '10:30'].map((t) => `2026-11-25T${t}:00-05:00`);
    const results = await Promise.all(
      starts.flatMap((start) => Array.from({ length: 5 }, () => h.api.post('/api/v1/book_job').set(pro.auth).send(validBooking({ start })))),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const rows = await h.t.db.selectFrom('bookings').select('id').where('pro_id', '=', pro.pro.id).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('DST in America/New_York over HTTP', () => {
  const night = { '7': [{ start: '00:00', end: '05:00' }] };
  const bookAt = (pro: { auth: Record<string, string> }, start: string) => bookJob(pro.auth, { bedrooms: 0, start });

  it('skips the missing hour on the spring-forward day and refuses a start inside it', async () => {
    h.clock.now = new Date('2027-03-01T12:00:00Z');
    const pro = await newPro(h, { weekly_hours: night, min_notice_minutes: 0 });
    const { body } = await h.api.get('/api/v1/open_times').set(pro.auth).query({ bedrooms: 0, bathrooms: 1, date: '2027-03-14', days: 1 }).expect(200);
    const starts = startsOf(body.open_times);
    expect(starts).toContain('2027-03-14T01:30:00-05:00');
    expect(starts).toContain('2027-03-14T03:00:00-04:00');
    expect(starts.some((s: string) => s.includes('T02:'))).toBe(false);
    const gap = await bookAt(pro, '2027-03-14T02:30').expect(400);
    expect(gap.body.error).toMatch(/does not exist in America\/New_York/);
    const after = await bookAt(pro, '2027-03-14T03:00:00-04:00').expect(200);
    expect(after.body.label).toBe('Sun, Mar 14, 3:00 AM EDT');
  });

  it('offers and books both 1 AMs on the fall-back day, each with its own offset', async () => {
    h.clock.now = new Date('2026-10-20T12:00:00Z');
    const pro = await newPro(h, { weekly_hours: night, min_notice_minutes: 0, travel_buffer_minutes: 0 });
    const { body } = await h.api.get('/api/v1/open_times').set(pro.auth).query({ bedrooms: 0, bathrooms: 1, date: '2026-11-01', days: 1 }).expect(200);
    expect(startsOf(body.open_times).filter((t) => t.includes('T01:00'))).toEqual(['2026-11-01T01:00:00-04:00', '2026-11-01T01:00:00-05:00']);
    // What the pages show of them: one label each, told apart by the zone's abbreviation.
    const ones = labelledStarts(body.open_times, 'America/New_York').filter((t) => t.start.includes('T01:00'));
    expect(ones.map((t) => t.label)).toEqual(['Sun, Nov 1, 1:00 AM EDT', 'Sun, Nov 1, 1:00 AM EST']);
    const first = await bookAt(pro, '2026-11-01T01:00:00-04:00').expect(200);
    const second = await bookAt(pro, '2026-11-01T01:00:00-05:00').expect(200);
    // A 45-minute job: the EDT one ends before the clocks fall back, so the EST 1 AM is free.
    expect(first.body.end).toBe('2026-11-01T01:45:00-04:00');
    expect(second.body.start).toBe('2026-11-01T01:00:00-05:00');
    expect(second.body.label).toBe('Sun, Nov 1, 1:00 AM EST');
    expect(Date.parse(second.body.start) - Date.parse(first.body.start)).toBe(3_600_000);
  });
});

describe('book_job refusals', () => {
  it('says a Sunday is a closed day', async () => {
    const { auth } = await newPro(h);
    const res = await bookJob(auth, { start: '2026-11-29T10:00:00-05:00' }).expect(400);
    expect(res.body.error).toMatch(/^Sun, Nov 29, 10:00 AM EST is outside working hours: this business is closed on Sundays\./);
    expect(res.body.error).not.toMatch(/within closed/);
  });

  it('offers the open times nearest to a start off the step, not the first ones of the day', async () => {
    const { auth } = await newPro(h);
    const res = await bookJob(auth, { start: '2026-11-24T10:10:00-05:00' }).expect(400);
    expect(res.body.error).toMatch(/not one of the offered start times/);
    const near = /The nearest open times: (.*)\.$/.exec(res.body.error)![1]!.split('; ');
    expect(near).toContain('Tue, Nov 24, 10:00 AM EST');
    expect(near).toContain('Tue, Nov 24, 10:30 AM EST');
    expect(near.join(' ')).not.toMatch(/8:00 AM|8:30 AM/);
  });

  it('labels a start a year in the past with its year, and offers times from now', async () => {
    const { auth } = await newPro(h);
    const res = await bookJob(auth, { start: '2025-11-24T10:00:00-05:00' }).expect(400);
    expect(res.body.error).toMatch(/^Mon, Nov 24, 2025, 10:00 AM EST is in the past\./);
    expect(res.body.error).toMatch(/The nearest open times: Tue, Nov 24, 8:00 AM EST; /);
    expect(res.body.error).not.toMatch(/2026/);
  });

  it('labels a day of open times in another year than now with that year', async () => {
    const { auth } = await newPro(h);
    h.clock.now = new Date('2026-12-30T12:00:00Z');
    const res = await h.api.get('/api/v1/open_times?bedrooms=1&bathrooms=1&date=2027-01-04&days=1').set(auth).expect(200);
    expect(res.body.open_times[0].label).toBe('Mon, Jan 4, 2027');
    expect(labelledStarts(res.body.open_times, 'America/New_York')[0]!.label).toBe('Mon, Jan 4, 2027, 8:00 AM EST');
    const thisYear = await h.api.get('/api/v1/open_times?bedrooms=1&bathrooms=1&date=2026-12-31&days=1').set(auth).expect(200);
    expect(thisYear.body.open_times[0].label).toBe('Thu, Dec 31');
  });
});

describe('report_no_show', () => {
  it('is refused before the start, and after it waives nothing for a business-made booking', async () => {
    const pro = await newPro(h);
    const booked = await h.api.post('/api/v1/book_job').set(pro.auth).send(validBooking()).expect(200);
    const early = await h.api.post('/api/v1/report_no_show').set(pro.auth).send({ booking_id: booked.body.booking_id }).expect(400);
    expect(early.body.error).toMatch(/only after the start/);
    h.clock.now = new Date('2026-11-24T14:05:00Z');
    const res = await h.api.post('/api/v1/report_no_show').set(pro.auth).send({ booking_id: booked.body.booking_id }).expect(200);
    expect(res.body).toMatchObject({ status: 'no_show', fee_waived: false });
    expect(res.body.message).toMatch(/made by the business, so there was no fee/);
    const again = await h.api.post('/api/v1/report_no_show').set(pro.auth).send({ booking_id: booked.body.booking_id }).expect(400);
    expect(again.body.error).toMatch(/already reported/);
  });

  it('is refused for a cancelled job and an unknown one', async () => {
    const pro = await newPro(h);
    const booked = await h.api.post('/api/v1/book_job').set(pro.auth).send(validBooking()).expect(200);
    await h.api.post('/api/v1/cancel_job').set(pro.auth).send({ booking_id: booked.body.booking_id }).expect(200);
    h.clock.now = new Date('2026-11-24T15:00:00Z');
    const res = await h.api.post('/api/v1/report_no_show').set(pro.auth).send({ booking_id: booked.body.booking_id }).expect(400);
    expect(res.body.error).toMatch(/was cancelled/);
    await h.api.post('/api/v1/report_no_show').set(pro.auth).send({ booking_id: 'bk_none' }).expect(404);
    const row = await h.t.db.selectFrom('bookings').select('status').where('id', '=', booked.body.booking_id).executeTakeFirstOrThrow();
    expect(row.status).toBe('cancelled');
  });
});

describe('series and moves over MCP', () => {
  it('books a weekly series, moves a visit and ends the series through the official SDK client', async () => {
    const pro = await newPro(h);
    const server = await listenOn(h.app);
    const client = await mcpClient(server.url, pro.auth);
    try {
      type Result = { isError?: boolean; structuredContent: Record<string, any> };
      const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as unknown as Result;
      const booked = await call('book_job', { ...validBooking(), frequency: 'weekly' });
      expect(booked.isError).toBeFalsy();
      const visits = booked.structuredContent.series.visits as { booking_id: string; start: string }[];
      expect(visits).toHaveLength(12);
      const moved = await call('reschedule_job', { booking_id: visits[2]!.booking_id, start: '2026-12-09T13:00:00-05:00' });
      expect(moved.structuredContent).toMatchObject({ start: '2026-12-09T13:00:00-05:00', previous_start: visits[2]!.start });
      const ended = await call('cancel_job', { booking_id: visits[6]!.booking_id, and_following: true });
      expect(ended.structuredContent.visits_cancelled).toBe(6);
      const wrong = await call('book_job', { ...validBooking({ start: '2026-11-25T09:00:00-05:00' }), frequency: 'weekly', skip_conflicts: 'yes' });
      expect(wrong.isError).toBe(true);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
