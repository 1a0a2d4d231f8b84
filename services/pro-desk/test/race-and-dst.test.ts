import { proDeskHarness, newPro, validBooking, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await proDeskHarness();
});
afterAll(() => h.close());

describe('book_job under a race', () => {
  it('20 concurrent requests for one slot produce exactly one booking; every loser hears it was just taken', async () => {
    const pro = await newPro(h);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.api
          .post('/api/v1/book_job')
          .set(pro.auth)
          .send(validBooking({ customer_name: `Racer ${i}` })),
      ),
    );
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
  const bookAt = (pro: { auth: Record<string, string> }, start: string) =>
    h.api
      .post('/api/v1/book_job')
      .set(pro.auth)
      .send(validBooking({ bedrooms: 0, start }));

  it('skips the missing hour on the spring-forward day and refuses a start inside it', async () => {
    h.clock.now = new Date('2027-03-01T12:00:00Z');
    const pro = await newPro(h, { weekly_hours: night, min_notice_minutes: 0 });
    const { body } = await h.api.get('/api/v1/open_times').set(pro.auth).query({ bedrooms: 0, bathrooms: 1, date: '2027-03-14', days: 1 }).expect(200);
    const starts = body.open_times.map((t: { start: string }) => t.start);
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
    const ones = body.open_times.filter((t: { start: string }) => t.start.includes('T01:00'));
    expect(ones.map((t: { label: string }) => t.label)).toEqual(['Sun, Nov 1, 1:00 AM EDT', 'Sun, Nov 1, 1:00 AM EST']);
    const first = await bookAt(pro, '2026-11-01T01:00:00-04:00').expect(200);
    const second = await bookAt(pro, '2026-11-01T01:00:00-05:00').expect(200);
    // A 45-minute job: the EDT one ends before the clocks fall back, so the EST 1 AM is free.
    expect(first.body.end).toBe('2026-11-01T01:45:00-04:00');
    expect(second.body.start).toBe('2026-11-01T01:00:00-05:00');
    expect(second.body.label).toBe('Sun, Nov 1, 1:00 AM EST');
    expect(Date.parse(second.body.start) - Date.parse(first.body.start)).toBe(3_600_000);
  });
});
