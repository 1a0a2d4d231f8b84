// The dashboard's crews (src/dashboard/crew-*.ts): each crew's own calendar feed, removing a
// crew with its jobs, and crews of another business.
import ICAL from 'ical.js';
import { dashboardSession, proDeskHarnessPerFile, newPro, validBooking, postDashboardForm, followDashboardForm, pageText } from '@frontdesk/dev-env/pro-desk';

const h = proDeskHarnessPerFile();

let seq = 0;
/** A business with two crews (its first, and "Night Owls"), and its owner signed in to the dashboard. */
async function twoCrews() {
  const email = `crews${(seq += 1)}@dash.example`;
  const pro = await newPro(h, { owner_email: email });
  const { cookie, csrf } = await dashboardSession(h, email);
  const second = (await h.api.post('/api/v1/add_crew').set(pro.auth).send({ name: 'Night Owls' }).expect(200)).body as { crew_id: string };
  const crews = (await h.api.get('/api/v1/my_business').set(pro.auth).expect(200)).body.crews as { crew_id: string; name: string }[];
  return { ...pro, cookie, csrf, first: crews[0]!, second: { crew_id: second.crew_id, name: 'Night Owls' } };
}
type Session = Awaited<ReturnType<typeof twoCrews>>;

const post = (s: Session, path: string, form: Record<string, string> = {}) => postDashboardForm(h, s, path, form);
const pageOf = async (s: Session, path: string) => (await h.api.get(path).set('Cookie', s.cookie).expect(200)).text;

const follow = (s: Session, res: { status: number; headers: Record<string, unknown> }) => followDashboardForm(h, s, res);

const book = (s: Session, crewId: string, over: Record<string, unknown> = {}) =>
  h.api
    .post('/api/v1/book_job')
    .set(s.auth)
    .send(validBooking({ crew_id: crewId, ...over }))
    .expect(200)
    .then((r) => r.body as { booking_id: string; start: string });

const eventsOf = (ics: string) => new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
const addressIn = (page: string) => new URL(/id="crew-calendar-url">([^<]+)</.exec(page)![1]!);

/** The words of an API a person must not read on a page. */
const API_WORDS = /\b(reassign_to|assign_job|update_crew|remove_crew|my_business|crew_id)\b/;
const shown = pageText;

describe("a crew's own calendar", () => {
  it('lists only that crew’s jobs; the business’s feed names each job’s crew; a new address ends the old, and removing the crew ends it too', async () => {
    const s = await twoCrews();
    const mine = await book(s, s.second.crew_id, { customer_name: 'Nora Night' });
    const theirs = await book(s, s.first.crew_id, { customer_name: 'Dan Day' });
    // Another business's jobs never show.
    const other = await twoCrews();
    await book(other, other.second.crew_id, { customer_name: 'Otto Other' });

    const made = await follow(s, await post(s, `/dashboard/crews/${s.second.crew_id}/calendar`));
    expect(made.text).toContain('lists only Night Owls&#39;s jobs');
    const url = addressIn(made.text);
    // A reload shows the same address and makes no other.
    expect(addressIn((await h.api.get(made.location).set('Cookie', made.cookie).expect(200)).text).href).toBe(url.href);
    expect(await pageOf(s, `/dashboard/crews/${s.second.crew_id}`)).toMatch(/calendar address ends in …[A-Za-z0-9_-]{4}/);
    const stored = await h.t.db.selectFrom('crew_calendar_feeds').selectAll().where('crew_id', '=', s.second.crew_id).executeTakeFirstOrThrow();
    expect(stored.token_hash.toString('utf8')).not.toContain(url.pathname.slice(10, 30));

    const feed = await h.api.get(url.pathname).expect(200);
    expect(feed.headers['content-type']).toMatch(/^text\/calendar; charset=utf-8/);
    expect(feed.headers['cache-control']).toBe('no-store');
    const uids = eventsOf(feed.text).map((e) => e.uid.split('@')[0]);
    expect(uids).toEqual([mine.booking_id]);
    expect(feed.text).toMatch(/X-WR-CALNAME:.*Night Owls jobs/);

    // The business's own feed lists both, each naming its crew.
    const business = await follow(s, await post(s, '/dashboard/calendar'));
    const all = eventsOf((await h.api.get(new URL(/id="calendar-url">([^<]+)</.exec(business.text)![1]!).pathname).expect(200)).text);
    const byUid = new Map(all.map((e) => [e.uid.split('@')[0], e]));
    expect(byUid.get(mine.booking_id)!.summary).toMatch(/for Nora Night \(Night Owls\)$/);
    expect(byUid.get(mine.booking_id)!.description).toMatch(/^Crew: Night Owls\n/);
    expect(byUid.get(theirs.booking_id)!.description).toContain(`Crew: ${s.first.name}`);

    // A new address ends the old one at once.
    const remade = await follow(s, await post(s, `/dashboard/crews/${s.second.crew_id}/calendar`));
    const next = addressIn(remade.text);
    expect(next.href).not.toBe(url.href);
    await h.api.get(url.pathname).expect(404);
    await h.api.get(next.pathname).expect(200);

    // Removed (its job given to the first crew, free once Dan's job is cancelled), the crew's address ends.
    await h.api.post('/api/v1/cancel_job').set(s.auth).send({ booking_id: theirs.booking_id }).expect(200);
    await follow(s, await post(s, `/dashboard/crews/${s.second.crew_id}/remove`, { reassign_to: s.first.crew_id }));
    await h.api.get(next.pathname).expect(404);
  });

  it('a single-crew business’s feed reads as before: no crew in its events', async () => {
    const s = await twoCrews();
    await h.api.post('/api/v1/remove_crew').set(s.auth).send({ crew_id: s.second.crew_id }).expect(200);
    const job = await book(s, s.first.crew_id);
    const made = await follow(s, await post(s, '/dashboard/calendar'));
    const [event] = eventsOf((await h.api.get(new URL(/id="calendar-url">([^<]+)</.exec(made.text)![1]!).pathname).expect(200)).text);
    expect(event!.uid.split('@')[0]).toBe(job.booking_id);
    expect(event!.summary).toBe('Standard clean for Ana Lopez');
    expect(event!.description).not.toContain('Crew:');
  });
});

describe('removing a crew on the dashboard', () => {
  it('asks for the crew to give its jobs to, refuses a busy one naming the clash, and moves them all in one step', async () => {
    const s = await twoCrews();
    const third = (await h.api.post('/api/v1/add_crew').set(s.auth).send({ name: 'Third Shift' }).expect(200)).body as { crew_id: string };
    const job = await book(s, s.second.crew_id, { customer_name: 'Mia Moved' });
    await book(s, s.first.crew_id, { customer_name: 'Bo Busy' });

    const confirm = await pageOf(s, `/dashboard/crews/${s.second.crew_id}/remove`);
    expect(shown(confirm)).toMatch(/Night Owls has 1 upcoming job/);
    expect(confirm).toContain('<label for="f-reassign_to">Give its jobs to</label>');

    const none = await post(s, `/dashboard/crews/${s.second.crew_id}/remove`).expect(400);
    expect(shown(none.text)).toMatch(/Night Owls still has 1 upcoming job \(the first .*\)\. Pick another crew to take them; nothing was changed\./);
    expect(shown(none.text)).not.toMatch(API_WORDS);

    const busy = await post(s, `/dashboard/crews/${s.second.crew_id}/remove`, { reassign_to: s.first.crew_id }).expect(400);
    expect(shown(busy.text)).toMatch(new RegExp(`${s.first.name} cannot take every job: The job .* overlaps another of its jobs`));
    // What was picked stays picked.
    expect(busy.text).toMatch(new RegExp(`<option value="${s.first.crew_id}"\\s+selected>`));
    expect((await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body.crews).toHaveLength(3);

    const done = await follow(s, await post(s, `/dashboard/crews/${s.second.crew_id}/remove`, { reassign_to: third.crew_id }));
    expect(done.location).toMatch(/^\/dashboard\/crews\?done=/);
    expect(done.text).toContain('Removed Night Owls; its 1 upcoming job moved to Third Shift.');
    const sched = (await h.api.get('/api/v1/schedule').set(s.auth).expect(200)).body.jobs as { booking_id: string; crew_name: string }[];
    expect(sched.find((j) => j.booking_id === job.booking_id)!.crew_name).toBe('Third Shift');
    // A reload shows the result again and removes nothing more.
    expect((await h.api.get(done.location).set('Cookie', done.cookie).expect(200)).text).toContain('Removed Night Owls');

    // Month counts the jobs booked per crew; the removed crew's job now counts on Third Shift.
    const month = shown(await pageOf(s, '/dashboard/month'));
    expect(month).toContain('Jobs booked per crew');
    expect(month).toMatch(new RegExp(`${s.first.name} 1 \\$\\d+\\.\\d\\d Third Shift 1 \\$\\d+\\.\\d\\d All crews 2 `));
  });

  it('says the last crew that takes jobs cannot go in the owner’s words, and a crew of another business is not found', async () => {
    const s = await twoCrews();
    const off = await follow(s, await post(s, `/dashboard/crews/${s.second.crew_id}/active`, { active: 'no' }));
    expect(off.text).toContain('Saved Night Owls: it takes no new jobs.');
    const refused = await post(s, `/dashboard/crews/${s.first.crew_id}/active`, { active: 'no' }).expect(400);
    expect(shown(refused.text)).toContain("is the business's only active crew: add or activate another crew first");

    const other = await twoCrews();
    const page = await h.api.get(`/dashboard/crews/${other.second.crew_id}`).set('Cookie', s.cookie).expect(404);
    expect(page.text).toContain('That crew is not in your business');
    const renamed = await post(s, `/dashboard/crews/${other.second.crew_id}/name`, { name: 'Mine now' }).expect(404);
    expect(renamed.text).toContain('That crew is not in your business');
    await post(s, `/dashboard/crews/${other.second.crew_id}/calendar`).expect(404);
    expect((await h.api.get('/api/v1/my_business').set(other.auth).expect(200)).body.crews.map((c: { name: string }) => c.name)).toContain('Night Owls');
  });

  it('keeps a crew’s time off as its own, listed on its page and in Settings with its name; each form address shows the crew’s page', async () => {
    const s = await twoCrews();
    const made = await follow(s, await post(s, `/dashboard/crews/${s.second.crew_id}/time-off`, { start: '2026-12-01', end: '2026-12-02', note: 'Training' }));
    expect(made.text).toContain('Time off saved for Night Owls');
    const off = (await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body.time_off as { crew_id: string }[];
    expect(off.map((t) => t.crew_id)).toEqual([s.second.crew_id]);
    expect(shown(await pageOf(s, '/dashboard/settings/time-off'))).toMatch(/, Night Owls only/);
    for (const part of ['name', 'hours', 'active', 'time-off', 'calendar', 'remove'])
      expect([part, await pageOf(s, `/dashboard/crews/${s.second.crew_id}/${part}`)]).toEqual([part, expect.stringContaining('<main>')]);
    const wrong = await post(s, `/dashboard/crews/${s.second.crew_id}/time-off`, { start: '2026-12-05', end: '2026-12-01' }).expect(400);
    expect(wrong.text).toMatch(/value="2026-12-05"/);
    expect(shown(wrong.text)).not.toMatch(API_WORDS);
    // The refusal names both fields as the form does, under the crew's own heading.
    expect(shown(wrong.text)).toContain('Last day off must be after first day off.');
    expect(wrong.text).toMatch(/<title>Night Owls/);
    // The same days sent again (Back, then the form once more) are the time off already there.
    await follow(s, await post(s, `/dashboard/crews/${s.second.crew_id}/time-off`, { start: '2026-12-01', end: '2026-12-02', note: 'Training' }));
    expect((await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body.time_off).toHaveLength(1);
  });
});
