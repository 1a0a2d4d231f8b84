// The dashboard's recurring plans (src/dashboard/plan-*.ts) and moves with the customer in mind
// (the job's move and cancel pages): real HTTP against the app, a real database. Each change is
// confirmed first, runs the operation, answers 303, and a reload of where it led repeats nothing.
import {
  dashboardSession,
  proDeskHarnessPerFile,
  newPro,
  validBooking,
  MONDAY_7AM,
  postDashboardForm,
  followDashboardForm,
  pageText,
} from '@frontdesk/dev-env/pro-desk';
import { extendSeries } from '@frontdesk/use-cases';

const h = proDeskHarnessPerFile();
type Json = Record<string, any>;

beforeEach(() => {
  h.clock.now = MONDAY_7AM;
});

let seq = 0;
async function signedIn() {
  const email = `plans${(seq += 1)}@dash.example`;
  const pro = await newPro(h, { owner_email: email });
  const { cookie, csrf } = await dashboardSession(h, email);
  return { ...pro, email, cookie, csrf };
}
type Session = Awaited<ReturnType<typeof signedIn>>;
const api = (s: Session, op: string, body: object) => h.api.post(`/api/v1/${op}`).set(s.auth).send(body);
const post = (s: Session, path: string, form: Record<string, string> = {}) => postDashboardForm(h, s, path, form);
const page = async (s: Session, path: string, status = 200) => (await h.api.get(path).set('Cookie', s.cookie).expect(status)).text;
const follow = (s: Session, res: { status: number; headers: Record<string, unknown> }) => followDashboardForm(h, s, res);

/** A weekly plan from Tue, Nov 24 at 9:00: twelve visits. */
async function weeklyPlan(s: Session, over: Record<string, unknown> = {}) {
  const booked = (await api(s, 'book_job', validBooking({ frequency: 'weekly', ...over })).expect(200)).body;
  return { seriesId: booked.series.series_id as string, visits: booked.series.visits as Json[] };
}
const statuses = async (seriesId: string) =>
  (await h.t.db.selectFrom('bookings').select('status').where('series_id', '=', seriesId).orderBy('starts_at').execute()).map((b) => b.status);
const eventCount = async (proId: string) => (await h.t.db.selectFrom('events').select('seq').where('pro_id', '=', proId).execute()).length;
const mailsTo = async (address: string) => h.t.db.selectFrom('outbox').select('subject').where('to_address', '=', address).execute();

describe("a recurring plan's page", () => {
  it('is linked from every visit, says the plan in words and lists its visits, upcoming then past', async () => {
    const s = await signedIn();
    const { seriesId, visits } = await weeklyPlan(s);
    const schedule = await page(s, '/dashboard/schedule');
    expect(schedule.split(`href="/dashboard/plans/${seriesId}"`)).toHaveLength(13);
    expect(pageText(schedule)).toContain('Every week: see the plan');
    const move = pageText(await page(s, `/dashboard/jobs/${visits[2]!.booking_id}/move`));
    expect(move).toContain('Recurring plan: Every week on Tuesdays at 9:00 AM, visit 3 of 12 booked so far.');
    h.clock.now = new Date(MONDAY_7AM.getTime() + 9 * 86_400_000); // Wed, Dec 2: two visits are past
    const later = { ...s, ...(await dashboardSession(h, s.email)) }; // the first sign-in has ended by then
    const plan = pageText(await page(later, `/dashboard/plans/${seriesId}`));
    expect(plan).toMatch(/Every week on Tuesdays at 9:00 AM ?: Standard clean for Ana Lopez, 12 Grove St, Apt 3, 10001/);
    expect(plan).toMatch(/Upcoming visits Tue, Dec 8, 9:00 AM EST Move Cancel this visit/);
    expect(plan).toMatch(/Past and cancelled visits Tue, Nov 24, 9:00 AM EST \(done\) Tue, Dec 1, 9:00 AM EST \(done\)/);
  });

  it("answers 404 with the way back for another business's plan", async () => {
    const s = await signedIn();
    const other = await signedIn();
    const { seriesId } = await weeklyPlan(other);
    expect(pageText(await page(s, `/dashboard/plans/${seriesId}`, 404))).toContain('That recurring plan is not in your business');
    await post(s, `/dashboard/plans/${seriesId}/end`, { from: 'bk_x' }).expect(404);
  });
});

describe("changing a plan's crew, pausing it and ending it", () => {
  it('gives every later visit to another crew after a confirmation that lists them, once', async () => {
    const s = await signedIn();
    const teamB = (await api(s, 'add_crew', { name: 'Team B' }).expect(200)).body;
    const { seriesId, visits } = await weeklyPlan(s);
    const from = visits[8]!.booking_id as string;
    const confirm = pageText(await page(s, `/dashboard/plans/${seriesId}/crew?from=${from}&crew_id=${teamB.crew_id}`));
    expect(confirm).toContain('4 visits from Tue, Jan 19, 2027, 9:00 AM EST on go to Team B, at the same times, and so do the visits booked later.');
    const before = await eventCount(s.pro.id);
    const done = await follow(s, await post(s, `/dashboard/plans/${seriesId}/crew`, { from, crew_id: teamB.crew_id }));
    expect(done.location).toMatch(new RegExp(`^/dashboard/plans/${seriesId}\\?done=`));
    expect(pageText(done.text)).toContain("Team B now does Ana Lopez's plan: 4 visits changed crew");
    expect(await eventCount(s.pro.id)).toBe(before + 4);
    await h.api.get(done.location).set('Cookie', done.cookie).expect(200);
    expect(await eventCount(s.pro.id)).toBe(before + 4);
  });

  it('pauses for the weeks asked, saying which visits go and that the customer is not told; a wrong number keeps what was typed', async () => {
    const s = await signedIn();
    const { seriesId, visits } = await weeklyPlan(s);
    const from = visits[2]!.booking_id as string;
    const refused = await page(s, `/dashboard/plans/${seriesId}/pause?from=${from}&weeks=40`);
    expect(pageText(refused)).toContain('For how many weeks must be a whole number from 1 to 26.');
    expect(refused).toMatch(/name="weeks"[^>]*value="40"|value="40"[^>]*name="weeks"/);
    expect(refused).toMatch(new RegExp(`<option value="${from}"\\s+selected>`));
    const confirm = pageText(await page(s, `/dashboard/plans/${seriesId}/pause?from=${from}&weeks=3`));
    expect(confirm).toContain(
      'The plan pauses for 3 weeks from Tue, Dec 8, 9:00 AM EST: 3 booked visits are cancelled (no fee), no visit is booked in those weeks, and it carries on with the visit of Tue, Dec 29, 9:00 AM EST.',
    );
    expect(confirm).toContain('We do not email or text Ana Lopez about this: call them at (212) 555-0100 to let them know.');
    const done = await follow(s, await post(s, `/dashboard/plans/${seriesId}/pause`, { from, weeks: '3' }));
    expect(pageText(done.text)).toContain("Paused Ana Lopez's plan: 3 visits cancelled, no fee; it carries on with the visit of Tue, Dec 29, 9:00 AM EST.");
    expect((await statuses(seriesId)).slice(0, 6)).toEqual(['booked', 'booked', 'cancelled', 'cancelled', 'cancelled', 'booked']);
    await h.api.get(done.location).set('Cookie', done.cookie).expect(200);
    expect((await statuses(seriesId)).filter((x) => x === 'cancelled')).toHaveLength(3);
    // A refused POST shows the plan with the form as typed.
    const again = await post(s, `/dashboard/plans/${seriesId}/pause`, { from: visits[6]!.booking_id, weeks: 'two' }).expect(400);
    expect(pageText(again.text)).toContain('For how many weeks must be a whole number from 1 to 26.');
    expect(again.text).toContain('value="two"');
  });

  it('ends the plan from a visit on, mails no one, and the horizon books nothing more', async () => {
    const s = await signedIn();
    const email = 'ends@customer.example';
    const { seriesId, visits } = await weeklyPlan(s, { customer_email: email });
    const from = visits[3]!.booking_id as string;
    const confirm = pageText(await page(s, `/dashboard/plans/${seriesId}/end?from=${from}`));
    expect(confirm).toContain(
      'The plan ends: the visit of Tue, Dec 15, 9:00 AM EST and the 8 booked after it are cancelled (no fee), and no more visits are booked.',
    );
    expect(confirm).toContain('We do not email or text Ana Lopez about this');
    const done = await follow(s, await post(s, `/dashboard/plans/${seriesId}/end`, { from }));
    expect(pageText(done.text)).toContain("Ended Ana Lopez's plan: 9 visits cancelled, no fee, and no more will be booked.");
    expect(pageText(done.text)).toContain('This plan has ended: no more visits will be booked.');
    await h.api.get(done.location).set('Cookie', done.cookie).expect(200);
    h.clock.now = new Date(MONDAY_7AM.getTime() + 6 * 7 * 86_400_000);
    await extendSeries(h.t.db, h.clock.now);
    expect(await statuses(seriesId)).toEqual([...Array(3).fill('booked'), ...Array(9).fill('cancelled')]);
    expect(await mailsTo(email)).toHaveLength(0);
  });
});

describe('moving with the customer in mind', () => {
  it('lists the open times nearest the job first, and moves a visit with every later one to the plan page', async () => {
    const s = await signedIn();
    const { seriesId, visits } = await weeklyPlan(s);
    const v = visits[4]!;
    const movePage = await page(s, `/dashboard/jobs/${v.booking_id}/move`);
    const nearest = /<legend>Nearest to its current time<\/legend>([\s\S]*?)<\/fieldset>/.exec(movePage)![1]!;
    const starts = (html: string) => [...html.matchAll(/name="start" value="([^"]+)"/g)].map((m) => m[1]!);
    const gap = (start: string) => Math.abs(Date.parse(start) - Date.parse(v.start as string));
    const first = starts(nearest);
    expect(first).toHaveLength(6);
    const rest = starts(movePage).filter((x) => !first.includes(x));
    expect(Math.max(...first.map(gap))).toBeLessThanOrEqual(Math.min(...rest.map(gap)));
    expect(pageText(movePage)).toContain('This visit and the 7 booked after it (the plan moves with it)');
    const to = '2026-12-23T10:00:00-05:00';
    const confirm = pageText(await page(s, `/dashboard/jobs/${v.booking_id}/move/confirm?start=${encodeURIComponent(to)}&visits=following`));
    expect(confirm).toContain('The 7 visits booked after it move with it');
    expect(confirm).toContain('Wed, Dec 30, 10:00 AM EST');
    const done = await follow(s, await post(s, `/dashboard/jobs/${v.booking_id}/move`, { start: to, visits: 'following' }));
    expect(done.location).toMatch(new RegExp(`^/dashboard/plans/${seriesId}\\?done=`));
    expect(pageText(done.text)).toContain('The 7 later visits of the series moved with it, keeping its rhythm.');
    const starts2 = (await h.t.db.selectFrom('bookings').select('starts_at').where('series_id', '=', seriesId).orderBy('starts_at').execute()).map((b) =>
      b.starts_at.toISOString(),
    );
    expect(starts2.slice(4, 6)).toEqual(['2026-12-23T15:00:00.000Z', '2026-12-30T15:00:00.000Z']);
  });

  it('offers to email a customer who gave an email, off by default, and sends the new time only when ticked', async () => {
    const s = await signedIn();
    const email = 'kim@customer.example';
    const job = (await api(s, 'book_job', validBooking({ customer_name: 'Kim', customer_email: email })).expect(200)).body;
    const to = '2026-11-25T10:00:00-05:00';
    const confirm = await page(s, `/dashboard/jobs/${job.booking_id}/move/confirm?start=${encodeURIComponent(to)}`);
    expect(pageText(confirm)).toContain('Email Kim the new time');
    expect(confirm).toMatch(/<input type="checkbox" id="f-email_customer" name="email_customer" value="yes"\s*\/>/);
    await follow(s, await post(s, `/dashboard/jobs/${job.booking_id}/move`, { start: to }));
    expect(await mailsTo(email)).toHaveLength(0);
    const later = '2026-11-26T10:00:00-05:00';
    const done = await follow(s, await post(s, `/dashboard/jobs/${job.booking_id}/move`, { start: later, email_customer: 'yes' }));
    expect(pageText(done.text)).toContain(`We emailed Kim the new time at ${email}.`);
    expect((await mailsTo(email)).map((m) => m.subject)).toEqual([expect.stringMatching(/^New time: .*, now Thu, Nov 26, 10:00 AM EST$/)]);
    await h.api.get(done.location).set('Cookie', done.cookie).expect(200);
    expect(await mailsTo(email)).toHaveLength(1);
    // The business's cancel says it mails no one, and mails no one.
    expect(pageText(await page(s, `/dashboard/jobs/${job.booking_id}/cancel`))).toContain(
      'We do not email or text Kim about this: call them at (212) 555-0100 or write to kim@customer.example to let them know.',
    );
    await follow(s, await post(s, `/dashboard/jobs/${job.booking_id}/cancel`));
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it("never offers it for a platform lead's customer, nor for one who gave no email", async () => {
    const s = await signedIn();
    const lead = (await api(s, 'log_lead', { source: 'marketplace_3', bedrooms: 2, bathrooms: 1 }).expect(200)).body;
    const platform = (await api(s, 'book_job', validBooking({ lead_id: lead.lead_id, customer_email: 'hidden@customer.example' })).expect(200)).body;
    const phoneOnly = (await api(s, 'book_job', validBooking({ start: '2026-11-24T13:00:00-05:00' })).expect(200)).body;
    const to = encodeURIComponent('2026-11-25T10:00:00-05:00');
    for (const id of [platform.booking_id, phoneOnly.booking_id]) {
      const confirm = await page(s, `/dashboard/jobs/${id}/move/confirm?start=${to}`);
      expect(confirm).not.toContain('email_customer');
      expect(pageText(confirm)).toContain('We do not tell Ana Lopez: you let them know.');
    }
    // Asked anyway, by a hand-made form: the move happens and no mail leaves.
    await follow(s, await post(s, `/dashboard/jobs/${platform.booking_id}/move`, { start: '2026-11-25T10:00:00-05:00', email_customer: 'yes' }));
    expect(await mailsTo('hidden@customer.example')).toHaveLength(0);
  });
});
