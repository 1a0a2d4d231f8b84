// reschedule_job (pro host) and reschedule_booking (book host): one transaction, the database as the judge.
import { startsOf } from '@frontdesk/domain';
import { asPublic, bothHostsPerFile, booking, newCleaner, proBooking, MONDAY_7AM, bookWeekly } from '@frontdesk/dev-env/both-hosts';
import { rotateCalendarFeed } from '@frontdesk/db';

const h = bothHostsPerFile();

const startsOn = async (auth: Record<string, string>, date: string) =>
  startsOf((await h.pro.get('/api/v1/open_times').query({ bedrooms: 2, bathrooms: 1, date, days: 1 }).set(auth).expect(200)).body.open_times);

describe('reschedule_job', () => {
  it('moves a job: the new time is taken, the old one freed, the price kept, and the feed says who moved it', async () => {
    const c = await newCleaner(h);
    const job = (await h.pro.post('/api/v1/book_job').set(c.auth).send(proBooking()).expect(200)).body;
    await h.pro
      .post('/api/v1/update_business')
      .set(c.auth)
      .send({ prices: { base: 90 } })
      .expect(200);
    expect(await startsOn(c.auth, '2026-11-24')).not.toContain('2026-11-24T09:00:00-05:00');

    const moved = await h.pro.post('/api/v1/reschedule_job').set(c.auth).send({ booking_id: job.booking_id, start: '2026-11-25T13:00:00-05:00' }).expect(200);
    expect(moved.body).toMatchObject({
      booking_id: job.booking_id,
      status: 'booked',
      start: '2026-11-25T13:00:00-05:00',
      previous_start: '2026-11-24T09:00:00-05:00',
      customer_notified: false,
    });
    expect(moved.body.message).toMatch(/Moved Ana's job from Tue, Nov 24, 9:00 AM EST to Wed, Nov 25, 1:00 PM EST; the price stays as booked/);
    expect(await startsOn(c.auth, '2026-11-24')).toContain('2026-11-24T09:00:00-05:00');
    expect(await startsOn(c.auth, '2026-11-25')).not.toContain('2026-11-25T13:00:00-05:00');
    const schedule = (await h.pro.get('/api/v1/schedule').set(c.auth).expect(200)).body;
    expect(schedule.jobs).toMatchObject([{ booking_id: job.booking_id, start: '2026-11-25T13:00:00-05:00', total: job.total }]);
    const feed = (await h.pro.get('/api/v1/updates').set(c.auth).query({ since: 0 }).expect(200)).body;
    expect(feed.events.find((e: { kind: string }) => e.kind === 'booking.rescheduled')).toMatchObject({
      booking_id: job.booking_id,
      from: '2026-11-24T09:00:00-05:00',
      to: '2026-11-25T13:00:00-05:00',
      rescheduled_by: 'pro',
    });
  });

  it('may move a job into the time it holds itself (later by half an hour), and refuses a taken or closed time with nearby open times, changing nothing', async () => {
    const c = await newCleaner(h);
    const job = (await h.pro.post('/api/v1/book_job').set(c.auth).send(proBooking()).expect(200)).body;
    await h.pro.post('/api/v1/reschedule_job').set(c.auth).send({ booking_id: job.booking_id, start: '2026-11-24T09:30:00-05:00' }).expect(200);
    await h.pro
      .post('/api/v1/book_job')
      .set(c.auth)
      .send(proBooking({ start: '2026-11-24T13:00:00-05:00', customer_name: 'Bo' }))
      .expect(200);
    const taken = await h.pro.post('/api/v1/reschedule_job').set(c.auth).send({ booking_id: job.booking_id, start: '2026-11-24T13:00:00-05:00' }).expect(400);
    expect(taken.body.error).toMatch(/1:00 PM EST (was just taken by another booking|is taken)/);
    const sunday = await h.pro.post('/api/v1/reschedule_job').set(c.auth).send({ booking_id: job.booking_id, start: '2026-11-29T10:00:00-05:00' }).expect(400);
    expect(sunday.body.error).toMatch(/closed on Sundays/);
    await h.pro.post('/api/v1/reschedule_job').set(c.auth).send({ booking_id: job.booking_id, start: '2026-11-24T09:30:00-05:00' }).expect(400);
    const schedule = (await h.pro.get('/api/v1/schedule').set(c.auth).expect(200)).body;
    expect(schedule.jobs.find((j: { booking_id: string }) => j.booking_id === job.booking_id).start).toBe('2026-11-24T09:30:00-05:00');
  });

  it("refuses another business's job, a cancelled one and one that has started", async () => {
    const a = await newCleaner(h);
    const b = await newCleaner(h);
    const job = (await h.pro.post('/api/v1/book_job').set(b.auth).send(proBooking()).expect(200)).body;
    await h.pro.post('/api/v1/reschedule_job').set(a.auth).send({ booking_id: job.booking_id, start: '2026-11-25T10:00:00-05:00' }).expect(404);
    h.clock.now = new Date('2026-11-24T14:30:00Z');
    const started = await h.pro.post('/api/v1/reschedule_job').set(b.auth).send({ booking_id: job.booking_id, start: '2026-11-25T10:00:00-05:00' }).expect(400);
    expect(started.body.error).toMatch(/has started cannot be moved/);
    h.clock.now = MONDAY_7AM;
    await h.pro.post('/api/v1/cancel_job').set(b.auth).send({ booking_id: job.booking_id }).expect(200);
    const cancelled = await h.pro
      .post('/api/v1/reschedule_job')
      .set(b.auth)
      .send({ booking_id: job.booking_id, start: '2026-11-25T10:00:00-05:00' })
      .expect(400);
    expect(cancelled.body.error).toMatch(/is cancelled; only a booked job can be moved/);
  });

  it('leaves exactly one winner when 20 bookings race a reschedule for the same time, and the old time free or untouched', async () => {
    for (let round = 0; round < 3; round++) {
      const c = await newCleaner(h);
      const job = (await h.pro.post('/api/v1/book_job').set(c.auth).send(proBooking()).expect(200)).body;
      const target = '2026-11-25T10:00:00-05:00';
      const racers = Array.from({ length: 20 }, (_, i) =>
        h.book
          .post('/api/v1/book_cleaning')
          .set(asPublic)
          .send(booking(c.pro.id, { start: target, customer_name: `Racer ${i}`, customer_email: `r${i}@example.com` })),
      );
      const move = h.pro.post('/api/v1/reschedule_job').set(c.auth).send({ booking_id: job.booking_id, start: target });
      const results = await Promise.all([move, ...racers]);
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.every((r) => r.status === 200 || r.status === 400)).toBe(true);
      const jobs = (await h.pro.get('/api/v1/schedule').set(c.auth).expect(200)).body.jobs as { booking_id: string; start: string }[];
      expect(jobs.filter((j) => j.start === target)).toHaveLength(1);
      const mine = jobs.find((j) => j.booking_id === job.booking_id)!;
      if (results[0].status === 200) {
        expect(mine.start).toBe(target);
        expect(await startsOn(c.auth, '2026-11-24')).toContain('2026-11-24T09:00:00-05:00');
      } else {
        expect(mine.start).toBe('2026-11-24T09:00:00-05:00');
      }
    }
  });
});

describe('reschedule_booking', () => {
  it('moves a booking by its manage token, tells the pro, and warns within 24 hours of the old start', async () => {
    const c = await newCleaner(h);
    const booked = (await h.book.post('/api/v1/book_cleaning').set(asPublic).send(booking(c.pro.id)).expect(200)).body;
    const moved = await h.book
      .post('/api/v1/reschedule_booking')
      .set(asPublic)
      .send({ manage_token: booked.manage_token, start: '2026-11-26T11:00:00-05:00' })
      .expect(200);
    expect(moved.body).toMatchObject({
      start: '2026-11-26T11:00:00-05:00',
      previous_start: '2026-11-24T09:00:00-05:00',
      within_24_hours: false,
      total: booked.total,
    });
    const notes = (await h.pro.get('/api/v1/schedule').set(c.auth).expect(200)).body.notifications as { kind: string; message: string }[];
    expect(notes.find((n) => n.kind === 'booking.rescheduled')!.message).toMatch(
      /moved by the customer: Ana Lopez, from Tue, Nov 24, 9:00 AM EST to Thu, Nov 26, 11:00 AM EST/,
    );

    h.clock.now = new Date('2026-11-25T20:00:00Z'); // 20 hours before Thursday 11:00
    const late = await h.book
      .post('/api/v1/reschedule_booking')
      .set(asPublic)
      .send({ manage_token: booked.manage_token, start: '2026-11-27T11:00:00-05:00' })
      .expect(200);
    expect(late.body.within_24_hours).toBe(true);
    expect(late.body.message).toMatch(/less than 24 hours away, so .* may charge/);
    await h.book
      .post('/api/v1/reschedule_booking')
      .set(asPublic)
      .send({ manage_token: 'x'.repeat(43), start: '2026-11-27T11:00:00-05:00' })
      .expect(404);
  });
});

describe('a series keeps its order', () => {
  it('moves a visit neither onto nor before the visit before it, nor alone onto or past the one after it; the first visit may come earlier, and a visit with every later one may go later', async () => {
    const c = await newCleaner(h);
    const made = await bookWeekly(h, c.pro.id, '2026-11-25T09:00:00-05:00');
    const visits = made.series.visits as { booking_id: string; start: string }[];
    const move = (visit: string, start: string, andFollowing = false) =>
      h.book
        .post('/api/v1/reschedule_booking')
        .set(asPublic)
        .send({ manage_token: made.manage_token, visit_id: visit, start, ...(andFollowing ? { and_following: true } : {}) });
    const startsNow = async () =>
      (await h.book.get('/api/v1/booking_status').set(asPublic).query({ manage_token: made.manage_token }).expect(200)).body.series_visits.map(
        (v: { start: string }) => v.start,
      );
    const before = await startsNow();

    // The second visit (Wed, Dec 2) to a day before the series began (Wed, Nov 25).
    const early = await move(visits[1]!.booking_id, '2026-11-24T13:00:00-05:00').expect(400);
    expect(early.body.error).toBe(
      'A visit of a series keeps its place in the series: it cannot move to Tue, Nov 24, on or before the visit of Wed, Nov 25, 9:00 AM EST. Pick a day after that visit.',
    );
    // Onto the day of the visit before it, even with every later visit.
    await move(visits[1]!.booking_id, '2026-11-25T14:00:00-05:00', true).expect(400);
    // Alone, past the next visit (Wed, Dec 9).
    const late = await move(visits[1]!.booking_id, '2026-12-10T09:00:00-05:00').expect(400);
    expect(late.body.error).toBe(
      'A visit of a series keeps its place in the series: moved alone, it cannot move to Thu, Dec 10, on or after the next visit of Wed, Dec 9, 9:00 AM EST. Pick a day before that visit, or move this visit and every later one together (and_following).',
    );
    expect(await startsNow()).toEqual(before);

    // Between its neighbours; the first visit earlier (it stays the first); a visit and every later one past the next.
    await move(visits[1]!.booking_id, '2026-12-04T09:00:00-05:00').expect(200);
    await move(visits[0]!.booking_id, '2026-11-24T13:00:00-05:00').expect(200);
    const together = await move(visits[2]!.booking_id, '2026-12-17T09:00:00-05:00', true).expect(200);
    expect(together.body.visits_moved).toBe(visits.length - 2);
    const after = await startsNow();
    expect(after.slice(0, 3)).toEqual(['2026-11-24T13:00:00-05:00', '2026-12-04T09:00:00-05:00', '2026-12-17T09:00:00-05:00']);
    expect([...after].sort()).toEqual(after);
  });
});

describe("a moved job's calendar version", () => {
  /** The SEQUENCE and STATUS of the one event with this booking's UID. */
  const versionIn = (ics: string, bookingId: string) => {
    const event = ics.split('BEGIN:VEVENT').find((e) => e.includes(`UID:${bookingId}@`))!;
    return { sequence: /\r\nSEQUENCE:(\d+)\r\n/.exec(event)?.[1], status: /\r\nSTATUS:([A-Z]+)\r\n/.exec(event)?.[1] };
  };

  it('rises with each move and with the cancel, the same in the business feed and the manage page .ics (RFC 5545 §3.8.7.4)', async () => {
    const c = await newCleaner(h);
    const feedToken = await rotateCalendarFeed(h.t.db, c.pro.id, h.clock.now);
    const booked = (await h.book.post('/api/v1/book_cleaning').set(asPublic).send(booking(c.pro.id)).expect(200)).body;
    const both = async () => [
      versionIn((await h.pro.get(`/calendar/${feedToken}.ics`).expect(200)).text, booked.booking_id),
      versionIn((await h.book.get(`/manage/${booked.manage_token}/booking.ics`).expect(200)).text, booked.booking_id),
    ];
    expect(await both()).toEqual([
      { sequence: '0', status: 'CONFIRMED' },
      { sequence: '0', status: 'CONFIRMED' },
    ]);
    await h.pro.post('/api/v1/reschedule_job').set(c.auth).send({ booking_id: booked.booking_id, start: '2026-11-25T13:00:00-05:00' }).expect(200);
    await h.book.post('/api/v1/reschedule_booking').set(asPublic).send({ manage_token: booked.manage_token, start: '2026-11-26T11:00:00-05:00' }).expect(200);
    expect(await both()).toEqual([
      { sequence: '2', status: 'CONFIRMED' },
      { sequence: '2', status: 'CONFIRMED' },
    ]);
    await h.pro.post('/api/v1/cancel_job').set(c.auth).send({ booking_id: booked.booking_id }).expect(200);
    expect(await both()).toEqual([
      { sequence: '3', status: 'CANCELLED' },
      { sequence: '3', status: 'CANCELLED' },
    ]);
  });
});
