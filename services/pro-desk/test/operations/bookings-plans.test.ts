// Recurring plans through the operations (src/operations/bookings.ts and crews.ts): pause_series,
// assign_job and reschedule_job with and_following, a move's email to the customer when asked,
// and the series horizon (extendSeries) honouring an end, a pause and a new crew. A file of its
// own because it moves its clock weeks ahead.
import { proDeskHarnessPerFile, newPro, validBooking, MONDAY_7AM } from '@frontdesk/dev-env/pro-desk';
import { extendSeries } from '@frontdesk/use-cases';

const h = proDeskHarnessPerFile();
type Json = Record<string, any>;
type Auth = Record<string, string>;

beforeEach(() => {
  h.clock.now = MONDAY_7AM;
});

const post = (auth: Auth, op: string, body: object) => h.api.post(`/api/v1/${op}`).set(auth).send(body);

/** A weekly plan from Tue, Nov 24 at 9:00 (twelve visits booked, through the horizon), with its visits. */
async function weeklyPlan(auth: Auth, over: Record<string, unknown> = {}) {
  const booked = (await post(auth, 'book_job', validBooking({ frequency: 'weekly', ...over })).expect(200)).body;
  return { seriesId: booked.series.series_id as string, visits: booked.series.visits as Json[] };
}

/** The local dates of a plan's visits that are still booked, in order. */
const bookedDates = async (seriesId: string) =>
  (await h.t.db.selectFrom('bookings').select('starts_at').where('series_id', '=', seriesId).where('status', '=', 'booked').orderBy('starts_at').execute()).map(
    (b) => new Date(b.starts_at.getTime() - 5 * 3_600_000).toISOString().slice(0, 10),
  );

const weeksAhead = (weeks: number) => new Date(MONDAY_7AM.getTime() + weeks * 7 * 86_400_000);
const mailsTo = async (address: string) => h.t.db.selectFrom('outbox').selectAll().where('to_address', '=', address).execute();

describe('pause_series', () => {
  it('cancels exactly the visits of the weeks asked, and the plan carries on after them', async () => {
    const { auth, pro } = await newPro(h);
    const { seriesId, visits } = await weeklyPlan(auth);
    expect(visits).toHaveLength(12);
    const res = await post(auth, 'pause_series', { booking_id: visits[2]!.booking_id, weeks: 2 }).expect(200);
    expect(res.body).toMatchObject({
      series_id: seriesId,
      visits_cancelled: 2,
      cancelled: [{ booking_id: visits[2]!.booking_id }, { booking_id: visits[3]!.booking_id }],
      resumes: '2026-12-22T09:00:00-05:00',
      resumes_label: 'Tue, Dec 22, 9:00 AM EST',
      fee: 0,
      customer_notified: false,
    });
    expect(res.body.message).toMatch(
      /^Paused Ana Lopez's plan for 2 weeks: 2 visits cancelled, no fee; it carries on with the visit of Tue, Dec 22, 9:00 AM EST\./,
    );
    const dates = await bookedDates(seriesId);
    expect(dates).not.toContain('2026-12-08');
    expect(dates).not.toContain('2026-12-15');
    expect(dates.slice(0, 3)).toEqual(['2026-11-24', '2026-12-01', '2026-12-22']);
    // The feed has each visit's cancellation, by the business.
    const events = await h.t.db.selectFrom('events').select('payload').where('pro_id', '=', pro.id).where('kind', '=', 'booking.cancelled').execute();
    expect(events.map((e) => (e.payload as Json).booking_id).sort()).toEqual([visits[2]!.booking_id, visits[3]!.booking_id].sort());
  });

  it('keeps a pause past the booked horizon: the horizon never books those weeks and books the plan again after them', async () => {
    const { auth } = await newPro(h);
    const { seriesId, visits } = await weeklyPlan(auth);
    // From Tue, Feb 2 for 5 weeks: Feb 2 and 9 are booked, Feb 16, 23 and Mar 2 are not yet.
    const paused = await post(auth, 'pause_series', { booking_id: visits[10]!.booking_id, weeks: 5 }).expect(200);
    expect(paused.body.visits_cancelled).toBe(2);
    expect(paused.body.resumes).toBe('2027-03-09T09:00:00-05:00');
    h.clock.now = weeksAhead(4);
    await extendSeries(h.t.db, h.clock.now);
    const later = (await bookedDates(seriesId)).filter((d) => d > '2027-01-26');
    expect(later).toEqual(['2027-03-09']);
    h.clock.now = weeksAhead(5);
    await extendSeries(h.t.db, h.clock.now);
    expect((await bookedDates(seriesId)).filter((d) => d > '2027-01-26')).toEqual(['2027-03-09', '2027-03-16']);
  });

  it('refuses a one-time job, weeks out of bounds, and a plan that has ended, changing nothing', async () => {
    const { auth } = await newPro(h);
    const once = (await post(auth, 'book_job', validBooking({ start: '2026-11-25T09:00:00-05:00' })).expect(200)).body;
    expect((await post(auth, 'pause_series', { booking_id: once.booking_id, weeks: 2 }).expect(400)).body.error).toMatch(
      /is a one-time job, not a visit of a recurring plan/,
    );
    const { visits } = await weeklyPlan(auth);
    expect((await post(auth, 'pause_series', { booking_id: visits[1]!.booking_id, weeks: 0 }).expect(400)).body.error).toMatch(/^weeks /);
    expect((await post(auth, 'pause_series', { booking_id: visits[1]!.booking_id, weeks: 27 }).expect(400)).body.error).toMatch(/^weeks /);
    await post(auth, 'cancel_job', { booking_id: visits[5]!.booking_id, and_following: true }).expect(200);
    expect((await post(auth, 'pause_series', { booking_id: visits[1]!.booking_id, weeks: 2 }).expect(400)).body.error).toMatch(/has ended/);
    expect((await h.t.db.selectFrom('bookings').select('status').where('id', '=', visits[1]!.booking_id).executeTakeFirstOrThrow()).status).toBe('booked');
  });
});

describe('an ended plan and the horizon', () => {
  it('books no new visit after cancel_job with and_following, however far the horizon rolls', async () => {
    const { auth } = await newPro(h);
    const { seriesId, visits } = await weeklyPlan(auth);
    const ended = await post(auth, 'cancel_job', { booking_id: visits[2]!.booking_id, and_following: true }).expect(200);
    expect(ended.body).toMatchObject({ visits_cancelled: 10, customer_notified: false });
    for (const weeks of [2, 6, 13]) {
      h.clock.now = weeksAhead(weeks);
      await extendSeries(h.t.db, h.clock.now);
    }
    expect(await bookedDates(seriesId)).toEqual(['2026-11-24', '2026-12-01']);
  });
});

describe('assign_job with and_following', () => {
  it('gives this visit and every later one to the crew, and the horizon books new visits with it', async () => {
    const { auth } = await newPro(h);
    const teamB = (await post(auth, 'add_crew', { name: 'Team B' }).expect(200)).body;
    const { seriesId, visits } = await weeklyPlan(auth);
    const firstCrew = visits[0]!.crew_id as string;
    expect(firstCrew).not.toBe(teamB.crew_id);
    const res = await post(auth, 'assign_job', { booking_id: visits[3]!.booking_id, crew_id: teamB.crew_id, and_following: true }).expect(200);
    expect(res.body).toMatchObject({ booking_id: visits[3]!.booking_id, crew_id: teamB.crew_id, from_crew_id: firstCrew, visits_assigned: 9 });
    expect(res.body.message).toMatch(/8 later visits of the series went to the same crew/);
    const crewOf = async () =>
      (
        await h.t.db.selectFrom('bookings').select(['crew_id']).where('series_id', '=', seriesId).where('status', '=', 'booked').orderBy('starts_at').execute()
      ).map((b) => b.crew_id);
    expect(await crewOf()).toEqual([...Array(3).fill(firstCrew), ...Array(9).fill(teamB.crew_id)]);
    // Without and_following, one job moves, as before.
    const one = await post(auth, 'assign_job', { booking_id: visits[1]!.booking_id, crew_id: teamB.crew_id }).expect(200);
    expect(one.body.visits_assigned).toBe(1);
    h.clock.now = weeksAhead(3);
    await extendSeries(h.t.db, h.clock.now);
    const after = await crewOf();
    expect(after.length).toBe(15);
    expect(after.slice(12)).toEqual(Array(3).fill(teamB.crew_id));
    expect(after[1]).toBe(teamB.crew_id);
  });

  it('refuses all when the crew cannot hold one of the later visits, changing nothing', async () => {
    const { auth } = await newPro(h);
    const teamB = (await post(auth, 'add_crew', { name: 'Team B' }).expect(200)).body;
    const { seriesId, visits } = await weeklyPlan(auth);
    await post(auth, 'add_time_off', { crew_id: teamB.crew_id, start: '2026-12-15', end: '2026-12-15' }).expect(200);
    const res = await post(auth, 'assign_job', { booking_id: visits[1]!.booking_id, crew_id: teamB.crew_id, and_following: true }).expect(400);
    expect(res.body.error).toMatch(/^Team B cannot take every job: .*Nothing was changed\.$/);
    const crews = await h.t.db.selectFrom('bookings').select('crew_id').distinct().where('series_id', '=', seriesId).execute();
    expect(crews).toHaveLength(1);
  });
});

describe("reschedule_job and the customer's email", () => {
  it('emails the customer the new time only with notify_customer, and never on a cancel', async () => {
    const { auth } = await newPro(h);
    const email = 'mia@customer.example';
    const job = (await post(auth, 'book_job', validBooking({ customer_name: 'Mia', customer_email: email })).expect(200)).body;
    const quiet = await post(auth, 'reschedule_job', { booking_id: job.booking_id, start: '2026-11-24T11:00:00-05:00' }).expect(200);
    expect(quiet.body.customer_notified).toBe(false);
    expect(await mailsTo(email)).toHaveLength(0);
    const told = await post(auth, 'reschedule_job', { booking_id: job.booking_id, start: '2026-11-25T10:00:00-05:00', notify_customer: true }).expect(200);
    expect(told.body.customer_notified).toBe(true);
    expect(told.body.message).toMatch(/Mia was emailed the new time\.$/);
    const [mail, ...more] = await mailsTo(email);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toMatch(/^New time: .*, now Wed, Nov 25, 10:00 AM EST$/);
    expect(mail!.text_body).toMatch(/moved your cleaning at 12 Grove St, Apt 3, 10001 from Tue, Nov 24, 11:00 AM EST to Wed, Nov 25, 10:00 AM EST/);
    expect(mail!.text_body).not.toMatch(/https?:\/\//);
    expect(mail!.ics).toMatch(/BEGIN:VEVENT/);
    await post(auth, 'cancel_job', { booking_id: job.booking_id }).expect(200);
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it("never emails a platform lead's customer, on any visit of their plan, even when asked", async () => {
    const { auth } = await newPro(h);
    const lead = (await post(auth, 'log_lead', { source: 'marketplace_2', bedrooms: 2, bathrooms: 1 }).expect(200)).body;
    const email = 'platform@customer.example';
    const { visits } = await weeklyPlan(auth, { lead_id: lead.lead_id, customer_email: email });
    for (const [visit, start] of [
      [visits[0]!, '2026-11-24T11:00:00-05:00'],
      [visits[3]!, '2026-12-15T11:00:00-05:00'],
    ] as const) {
      const res = await post(auth, 'reschedule_job', { booking_id: visit.booking_id, start, notify_customer: true }).expect(200);
      expect(res.body.customer_notified).toBe(false);
    }
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it('moves every later visit with and_following and mails one note of it', async () => {
    const { auth } = await newPro(h);
    const email = 'rhythm@customer.example';
    const { seriesId, visits } = await weeklyPlan(auth, { customer_email: email });
    const res = await post(auth, 'reschedule_job', {
      booking_id: visits[4]!.booking_id,
      start: '2026-12-23T10:00:00-05:00',
      and_following: true,
      notify_customer: true,
    }).expect(200);
    expect(res.body).toMatchObject({ visits_moved: 8, customer_notified: true });
    expect((await bookedDates(seriesId)).slice(3, 6)).toEqual(['2026-12-15', '2026-12-23', '2026-12-30']);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text_body).toMatch(/7 later visits of the series were moved too/);
  });
});
