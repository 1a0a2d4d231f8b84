// Recurring cleanings on both hosts: a weekly, biweekly or monthly booking books a series.
import { DEFAULT_WEEKLY_HOURS } from '@frontdesk/domain';
import { extendSeries } from '@frontdesk/use-cases';
import { asPublic, bothHostsPerFile, booking, newCleaner, proBooking, MONDAY_7AM, bookCleaning, bookJob } from '@frontdesk/dev-env/both-hosts';

const h = bothHostsPerFile();

type Visit = { booking_id: string; start: string; label: string; total: number };
const scheduleOf = async (auth: Record<string, string>) =>
  (await h.pro.get('/api/v1/schedule').set(auth).expect(200)).body.jobs as {
    booking_id: string;
    start: string;
    series_id: string | null;
    fee: number;
    status: string;
  }[];

/** A cleaner with a weekly series from Tuesday 09:00, booked by the business. */
async function weeklySeries() {
  const c = await newCleaner(h);
  const res = await bookJob(h, c.auth, proBooking({ frequency: 'weekly' })).expect(200);
  return { c, res };
}

describe('a series', () => {
  it('books every weekly visit through twelve weeks at the same local time, and rolls forward across both DST changes', async () => {
    const { res } = await weeklySeries();
    const series = res.body.series as { series_id: string; frequency: string; visits: Visit[]; skipped: unknown[] };
    expect(series).toMatchObject({ frequency: 'weekly', skipped: [] });
    expect(series.visits).toHaveLength(12);
    expect(series.visits.every((v) => v.start.slice(10) === 'T09:00:00-05:00')).toBe(true);
    expect(series.visits[0]!.booking_id).toBe(res.body.booking_id);
    expect(res.body.series_id).toBe(series.series_id);
    expect(res.body.message).toMatch(/series of 12 visits/);
    // The first visit follows the business's first-visit rule; the later ones the recurring price.
    expect(new Set(series.visits.map((v) => v.total)).size).toBe(1);

    // Time passes: the horizon rolls forward and every visit keeps 09:00 local, EST or EDT.
    let starts: string[] = [];
    for (let t = MONDAY_7AM.getTime(); t < Date.parse('2027-11-30T12:00:00Z'); t += 56 * 86_400_000) {
      h.clock.now = new Date(t);
      await extendSeries(h.t.db, h.clock.now);
    }
    const rows = await h.t.db.selectFrom('bookings').select(['starts_at']).where('series_id', '=', series.series_id).orderBy('starts_at').execute();
    starts = rows.map((r) => r.starts_at.toISOString());
    expect(starts.length).toBeGreaterThan(52);
    expect(starts).toContain('2027-03-09T14:00:00.000Z'); // Tuesday before spring forward: 09:00 EST
    expect(starts).toContain('2027-03-16T13:00:00.000Z'); // after: 09:00 EDT
    expect(starts).toContain('2027-11-02T13:00:00.000Z'); // before falling back: 09:00 EDT
    expect(starts).toContain('2027-11-09T14:00:00.000Z'); // after: 09:00 EST
    // Every week, none twice.
    expect(new Set(starts).size).toBe(starts.length);
    const gaps = rows.slice(1).map((r, i) => Math.round((r.starts_at.getTime() - rows[i]!.starts_at.getTime()) / 86_400_000));
    expect(gaps.every((g) => g === 7)).toBe(true);
  });

  it('refuses the whole series when a visit cannot be held, naming it with open times nearby; skip_conflicts books the rest', async () => {
    const c = await newCleaner(h);
    await bookJob(h, c.auth, proBooking({ start: '2026-12-08T09:00:00-05:00', customer_name: 'Busy' })).expect(200);
    const before = (await scheduleOf(c.auth)).length;
    const refused = await bookJob(h, c.auth, proBooking({ frequency: 'weekly' })).expect(400);
    expect(refused.body.error).toMatch(
      /cannot be booked, so nothing was booked: Tue, Dec 8, 9:00 AM EST is taken[\s\S]*open nearby: [\s\S]*skip_conflicts: true/,
    );
    expect(await scheduleOf(c.auth)).toHaveLength(before);

    const skipped = await bookJob(h, c.auth, proBooking({ frequency: 'weekly', skip_conflicts: true })).expect(200);
    expect(skipped.body.series.visits).toHaveLength(11);
    expect(skipped.body.series.skipped).toEqual([expect.objectContaining({ start: '2026-12-08T09:00:00-05:00', reason: expect.stringMatching(/taken/) })]);
    const feed = (await h.pro.get('/api/v1/updates').set(c.auth).query({ since: 0 }).expect(200)).body.events as { kind: string; visits?: number }[];
    expect(feed.find((e) => e.kind === 'series.created')).toMatchObject({ visits: 11 });
  });

  it('takes one customer fee per series, counts it as one job, and waives it on a no-show of the first visit', async () => {
    const c = await newCleaner(h, { weekly_hours: DEFAULT_WEEKLY_HOURS });
    const res = await bookCleaning(h, booking(c.pro.id, { frequency: 'biweekly' })).expect(200);
    expect(res.body.series.visits).toHaveLength(6);
    const jobs = await scheduleOf(c.auth);
    expect(jobs.map((j) => j.fee)).toEqual([5, 0, 0, 0, 0, 0]);
    expect(jobs.every((j) => j.series_id === res.body.series.series_id)).toBe(true);
    const month = (await h.pro.get('/api/v1/pipeline').set(c.auth).query({ month: '2026-11' }).expect(200)).body;
    expect(month.customers_brought_by_service).toMatchObject({ bookings: 1, fees_due: 5 });
    expect(month.jobs_booked.total).toBe(1);
    h.clock.now = new Date('2026-11-24T16:00:00Z');
    await h.pro.post('/api/v1/report_no_show').set(c.auth).send({ booking_id: res.body.booking_id }).expect(200);
    const after = (await h.pro.get('/api/v1/pipeline').set(c.auth).query({ month: '2026-11' }).expect(200)).body;
    expect(after.customers_brought_by_service.fees_due).toBe(0);
  });

  it('cancels one visit, or with and_following this and every later one, ending the series', async () => {
    const { c, res } = await weeklySeries();
    const visits = res.body.series.visits as Visit[];
    const one = await h.pro.post('/api/v1/cancel_job').set(c.auth).send({ booking_id: visits[1]!.booking_id }).expect(200);
    expect(one.body.visits_cancelled).toBe(1);
    const rest = await h.pro.post('/api/v1/cancel_job').set(c.auth).send({ booking_id: visits[4]!.booking_id, and_following: true }).expect(200);
    expect(rest.body.visits_cancelled).toBe(8);
    expect(rest.body.message).toMatch(/The 7 later visits are cancelled too; the series has ended/);
    const live = (await scheduleOf(c.auth)).map((j) => j.booking_id);
    expect(live).toEqual([visits[0]!.booking_id, visits[2]!.booking_id, visits[3]!.booking_id]);
    h.clock.now = new Date('2027-01-20T12:00:00Z');
    await extendSeries(h.t.db, h.clock.now);
    const count = await h.t.db.selectFrom('bookings').select('id').where('series_id', '=', res.body.series_id).where('status', '=', 'booked').execute();
    expect(count).toHaveLength(3);
    const feed = (await h.pro.get('/api/v1/updates').set(c.auth).query({ since: 0 }).expect(200)).body.events as { kind: string }[];
    expect(feed.map((e) => e.kind)).toContain('series.cancelled');
  });

  it('lets the customer move and end a series with its manage token and and_following', async () => {
    const c = await newCleaner(h);
    const res = await bookCleaning(h, booking(c.pro.id, { frequency: 'monthly' })).expect(200);
    expect(res.body.series.visits.length).toBe(7); // every four weeks for six months
    // One later visit alone, named by visit_id from booking_status.
    const status = (await h.book.get('/api/v1/booking_status').set(asPublic).query({ manage_token: res.body.manage_token }).expect(200)).body;
    const visits = status.series_visits as { booking_id: string; status: string }[];
    expect(visits).toHaveLength(7);
    const one = await h.book
      .post('/api/v1/cancel_booking')
      .set(asPublic)
      .send({ manage_token: res.body.manage_token, visit_id: visits[3]!.booking_id })
      .expect(200);
    expect(one.body).toMatchObject({ booking_id: visits[3]!.booking_id, visits_cancelled: 1 });
    const other = (await bookCleaning(h, booking(c.pro.id, { start: '2026-11-26T15:00:00-05:00' })).expect(200)).body;
    await h.book.post('/api/v1/cancel_booking').set(asPublic).send({ manage_token: res.body.manage_token, visit_id: other.booking_id }).expect(404);
    await h.book.post('/api/v1/cancel_booking').set(asPublic).send({ manage_token: other.manage_token }).expect(200);
    const moved = await h.book
      .post('/api/v1/reschedule_booking')
      .set(asPublic)
      .send({ manage_token: res.body.manage_token, start: '2026-11-25T10:00:00-05:00', and_following: true })
      .expect(200);
    expect(moved.body).toMatchObject({ visits_moved: 6, start: '2026-11-25T10:00:00-05:00' });
    // Wednesdays at 10:00 local, in standard or daylight time alike.
    expect(new Set((await scheduleOf(c.auth)).map((j) => `${new Date(j.start.slice(0, 10)).getUTCDay()} ${j.start.slice(11, 16)}`))).toEqual(
      new Set(['3 10:00']),
    );
    await scheduleOf(c.auth); // reads (and so clears) the notices of the moves and cancels above
    const done = await h.book.post('/api/v1/cancel_booking').set(asPublic).send({ manage_token: res.body.manage_token, and_following: true }).expect(200);
    expect(done.body.visits_cancelled).toBe(6);
    const after = (await h.pro.get('/api/v1/schedule').set(c.auth).expect(200)).body;
    expect(after.jobs).toEqual([]);
    // One act of the customer, one notice to the owner (the feed still has both events).
    const notices = after.notifications as { kind: string; message: string }[];
    expect(notices.map((n) => n.kind)).toEqual(['series.cancelled']);
    expect(notices[0]!.message).toMatch(/^Series ended by the customer: .+'s 6 visits from .+ onward are cancelled\.$/);
  });

  it('moves a visit and every later one with and_following, keeping the rhythm on the new weekday, or refuses the whole move', async () => {
    const { c, res } = await weeklySeries();
    const visits = res.body.series.visits as Visit[];
    // Someone holds Wednesday Dec 30 at 13:00: moving onto Wednesdays at 13:00 cannot keep that week.
    await bookJob(h, c.auth, proBooking({ start: '2026-12-30T13:00:00-05:00', customer_name: 'Holder' })).expect(200);
    const refused = await h.pro
      .post('/api/v1/reschedule_job')
      .set(c.auth)
      .send({ booking_id: visits[2]!.booking_id, start: '2026-12-09T13:00:00-05:00', and_following: true })
      .expect(400);
    expect(refused.body.error).toMatch(/cannot move there, so nothing moved: Wed, Dec 30, 1:00 PM EST is taken/);
    expect((await scheduleOf(c.auth)).filter((j) => j.series_id).map((j) => j.start.slice(0, 10))).toEqual(visits.map((v) => v.start.slice(0, 10)));

    const moved = await h.pro
      .post('/api/v1/reschedule_job')
      .set(c.auth)
      .send({ booking_id: visits[2]!.booking_id, start: '2026-12-10T14:00:00-05:00', and_following: true })
      .expect(200);
    expect(moved.body).toMatchObject({ visits_moved: 10, start: '2026-12-10T14:00:00-05:00', previous_start: visits[2]!.start });
    const mine = (await scheduleOf(c.auth)).filter((j) => j.series_id === res.body.series_id).map((j) => j.start);
    expect(mine.slice(0, 2)).toEqual([visits[0]!.start, visits[1]!.start]);
    expect(mine.slice(2).every((start) => start.endsWith('T14:00:00-05:00') && new Date(start).getUTCDay() === 4)).toBe(true);
    expect(mine).toHaveLength(12);
    // The horizon keeps rolling on Thursdays at 14:00.
    h.clock.now = new Date('2027-01-10T12:00:00Z');
    await extendSeries(h.t.db, h.clock.now);
    const later = await h.t.db
      .selectFrom('bookings')
      .select('starts_at')
      .where('series_id', '=', res.body.series_id)
      .where('starts_at', '>', new Date('2027-02-12T00:00:00Z'))
      .orderBy('starts_at')
      .execute();
    expect(later.length).toBeGreaterThan(0);
    const local = (d: Date) => d.toLocaleString('en-US', { timeZone: 'America/New_York', weekday: 'short', hour: '2-digit', minute: '2-digit', hour12: false });
    expect(new Set(later.map((b) => local(b.starts_at)))).toEqual(new Set(['Thu 14:00']));
  });

  it('skips a visit whose local time does not exist that day (clocks spring forward), naming the date', async () => {
    const allDay = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]));
    const c = await newCleaner(h, { weekly_hours: allDay, min_notice_minutes: 0 });
    h.clock.now = new Date('2027-03-01T12:00:00Z');
    const night = proBooking({ frequency: 'weekly', start: '2027-03-07T02:30:00-05:00' });
    const refused = await h.pro.post('/api/v1/book_job').set(c.auth).send(night).expect(400);
    expect(refused.body.error).toMatch(/nothing was booked: 2027-03-14 at 02:30 does not exist: clocks spring forward that day\./);
    const res = await bookJob(h, c.auth, { ...night, skip_conflicts: true }).expect(200);
    expect(res.body.series.skipped).toEqual([expect.objectContaining({ label: '2027-03-14 at 02:30' })]);
    expect(res.body.series.visits).toHaveLength(11); // twelve Sundays through the horizon, less the one skipped
  });
});
