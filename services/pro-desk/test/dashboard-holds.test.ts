// The times a business pencilled in (hold_time on the pro host) on the dashboard's Today and
// Schedule, and their release through release_hold (src/dashboard/hold-release.ts); and Today's
// order, its no-shows and its booking page address.
import { startsOf } from '@frontdesk/domain';
import { dashboardSession, followDashboardForm, newPro, pageText, postDashboardForm, proDeskHarnessPerFile, validBooking } from '@frontdesk/dev-env/pro-desk';

const h = proDeskHarnessPerFile();

const START = '2026-11-24T09:00:00-05:00';
/** Tuesday 2026-11-24, 7:00 AM in New York: the day of the held start. */
const TUESDAY_7AM = new Date('2026-11-24T12:00:00Z');

let seq = 0;
async function signedIn() {
  const email = `owner${(seq += 1)}@holds.example`;
  const pro = await newPro(h, { owner_email: email });
  return { ...pro, email, ...(await dashboardSession(h, email)) };
}
type Session = Awaited<ReturnType<typeof signedIn>>;
/** Moves the clock on and signs the owner in again (a session lasts 12 hours of it). */
async function at(s: Session, when: Date): Promise<Session> {
  h.clock.now = when;
  return { ...s, ...(await dashboardSession(h, s.email)) };
}
/** Makes a hold run out by the database's clock, as time would. */
const runOut = (id: string) =>
  h.t.db
    .updateTable('holds')
    .set({ created_at: new Date(Date.now() - 120_000), expires_at: new Date(Date.now() - 1000) })
    .where('id', '=', id)
    .execute();

const api = {
  get: (s: Session, op: string, query: object = {}) => h.api.get(`/api/v1/${op}`).set(s.auth).query(query).expect(200),
  post: (s: Session, op: string, body: object) => h.api.post(`/api/v1/${op}`).set(s.auth).send(body).expect(200),
};
const textOf = async (s: Session, path: string, status = 200) => pageText((await h.api.get(path).set('Cookie', s.cookie).expect(status)).text);
const post = (s: Session, path: string, form: Record<string, string> = {}) => postDashboardForm(h, s, path, form);

async function leadNamed(s: Session, name: string): Promise<string> {
  const body = { source: 'website', customer_first_name: name, contact: 'dana@example.com', zip: '10001', bedrooms: 2, bathrooms: 1 };
  return (await api.post(s, 'log_lead', body)).body.lead.lead_id;
}
const hold = async (s: Session, over: object = {}): Promise<{ hold_id: string }> =>
  (await api.post(s, 'hold_time', { bedrooms: 2, bathrooms: 1, start: START, minutes: 2880, ...over })).body;
const startsOnTuesday = async (s: Session): Promise<string[]> =>
  startsOf((await api.get(s, 'open_times', { bedrooms: 2, bathrooms: 1, date: '2026-11-24', days: 1 })).body.open_times);

describe('times pencilled in, on Today and Schedule', () => {
  it("lists each live one with the lead's name, the job in words and its release, on Schedule ahead and on Today on its day", async () => {
    const s = await signedIn();
    const dana = await hold(s, { lead_id: await leadNamed(s, 'Dana'), add_ons: ['fridge'], pets: true });
    const plain = await hold(s, { start: '2026-11-24T13:00:00-05:00' });
    const schedule = await textOf(s, '/dashboard/schedule');
    expect(schedule).toMatch(
      /Pencilled in \(2\) .* Tue, Nov 24, 9:00 AM EST Pencilled in for Dana until \w{3}, \w{3} \d+, \d+:\d\d [AP]M EST; not booked yet\. Standard clean, 2 bd \/ 1 ba, fridge, pets, \$\d+\.\d\d Release/,
    );
    expect(schedule).toMatch(/Tue, Nov 24, 1:00 PM EST Pencilled in until [^;]+; not booked yet\. Standard clean, 2 bd \/ 1 ba, \$125\.00 Release/);
    expect(schedule).not.toMatch(/Crew:/); // one crew: never named
    const page = (await h.api.get('/dashboard/schedule').set('Cookie', s.cookie).expect(200)).text;
    expect(page).toContain(`href="/dashboard/holds/${dana.hold_id}/release"`);
    // Not today: Today shows neither.
    expect(await textOf(s, '/dashboard')).not.toMatch(/Pencilled in/);

    const tuesday = await at(s, TUESDAY_7AM);
    const today = await textOf(tuesday, '/dashboard');
    expect(today).toMatch(/Today's jobs No jobs today\. Tue, Nov 24, 9:00 AM EST Pencilled in for Dana until .* Tue, Nov 24, 1:00 PM EST Pencilled in until/);
    const todayPage = (await h.api.get('/dashboard').set('Cookie', tuesday.cookie).expect(200)).text;
    expect(todayPage).toContain(`href="/dashboard/holds/${plain.hold_id}/release?back=today"`);
  });

  it("lists today's jobs and pencilled-in times as one list in the order of their starts", async () => {
    const s = await signedIn();
    await hold(s, { start: '2026-11-24T09:00:00-05:00' });
    await api.post(s, 'book_job', validBooking({ start: '2026-11-24T11:00:00-05:00' }));
    await hold(s, { start: '2026-11-24T13:00:00-05:00' });
    const today = await textOf(await at(s, TUESDAY_7AM), '/dashboard');
    expect(today).toMatch(
      /Today's jobs Tue, Nov 24, 9:00 AM EST Pencilled in until .* Tue, Nov 24, 11:00 AM EST Standard clean for Ana Lopez.* Tue, Nov 24, 1:00 PM EST Pencilled in until /,
    );
    expect(today).not.toMatch(/No jobs today/);
  });

  it('names the crew with several crews, and shows one crew’s only when one is picked', async () => {
    const s = await signedIn();
    const b = (await api.post(s, 'add_crew', { name: 'Team B' })).body;
    await hold(s, { crew_id: b.crew_id });
    const first = (await api.get(s, 'my_business')).body.crews[0].crew_id;
    expect(await textOf(s, '/dashboard/schedule')).toMatch(/Pencilled in until .* Crew: Team B Release/);
    expect(await textOf(s, `/dashboard/schedule?crew=${b.crew_id}`)).toMatch(/Pencilled in \(1\)/);
    expect(await textOf(s, `/dashboard/schedule?crew=${first}`)).not.toMatch(/Pencilled in/);
  });

  it('never shows a time released, run out or booked (the live rule of the queries)', async () => {
    const s = await signedIn();
    const released = await hold(s);
    await api.post(s, 'release_hold', { hold_id: released.hold_id });
    const ranOut = await hold(s, { start: '2026-11-24T13:00:00-05:00' });
    await runOut(ranOut.hold_id);
    const used = await hold(s, { start: '2026-11-25T09:00:00-05:00' });
    await api.post(s, 'book_job', validBooking({ start: '2026-11-25T09:00:00-05:00', hold_id: used.hold_id }));
    const schedule = await textOf(s, '/dashboard/schedule');
    expect(schedule).not.toMatch(/Pencilled in/);
    expect(schedule).toMatch(/Coming up Wed, Nov 25, 9:00 AM EST Standard clean for Ana Lopez/);
    expect((await api.get(s, 'schedule')).body.holds).toEqual([]);
  });
});

describe('releasing a pencilled-in time from the dashboard', () => {
  it('says what releasing does, runs release_hold, frees the time, and a reload repeats nothing', async () => {
    const s = await signedIn();
    const { hold_id: id } = await hold(s, { lead_id: await leadNamed(s, 'Dana') });
    expect(await startsOnTuesday(s)).not.toContain(START);
    const confirm = await textOf(s, `/dashboard/holds/${id}/release`);
    expect(confirm).toMatch(/Release this time\? .*Tue, Nov 24, 9:00 AM EST : Pencilled in for Dana until/);
    expect(confirm).toContain('the time goes back to your open times; nothing is sent to anyone.');
    const done = await followDashboardForm(h, s, await post(s, `/dashboard/holds/${id}/release`, { back: 'schedule' }));
    expect(done.location).toMatch(/^\/dashboard\/schedule\?done=[A-Za-z0-9_-]+$/);
    const said = 'Released the time pencilled in for Dana on Tue, Nov 24, 9:00 AM EST: it goes back to your open times. Nothing was sent to anyone.';
    expect(pageText(done.text)).toContain(said);
    expect(pageText(done.text)).not.toMatch(/Pencilled in \(/);
    expect(await startsOnTuesday(s)).toContain(START);
    expect((await api.get(s, 'schedule')).body.holds).toEqual([]);
    const row = await h.t.db.selectFrom('holds').select('released_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.released_at).not.toBeNull();

    // A reload shows the same result and releases nothing again.
    const reload = await h.api.get(done.location).set('Cookie', done.cookie).expect(200);
    expect(pageText(reload.text)).toContain(said);
    const after = await h.t.db.selectFrom('holds').select('released_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(after.released_at).toEqual(row.released_at);

    // The form sent again, or the page opened again, says it was released already, in words.
    const again = await followDashboardForm(h, s, await post(s, `/dashboard/holds/${id}/release`));
    expect(pageText(again.text)).toContain(
      'The time pencilled in for Dana on Tue, Nov 24, 9:00 AM EST was released already: it is back among your open times. Nothing changed.',
    );
    const gonePage = await textOf(s, `/dashboard/holds/${id}/release`);
    expect(gonePage).toMatch(/was released already/);
    expect(gonePage).not.toMatch(/Release this time /); // no button
    expect(gonePage).not.toMatch(/Release this time\?/); // and no question in its heading
    expect(gonePage).toMatch(/No longer pencilled in/);
  });

  it('goes back to Today when released from Today', async () => {
    const monday = await signedIn();
    const { hold_id: id } = await hold(monday, { start: '2026-11-24T13:00:00-05:00' });
    const s = await at(monday, TUESDAY_7AM);
    const page = (await h.api.get(`/dashboard/holds/${id}/release?back=today`).set('Cookie', s.cookie).expect(200)).text;
    expect(page).toContain('<input type="hidden" name="back" value="today" />');
    expect(page).toContain('<a href="/dashboard">Back to today</a>');
    const done = await followDashboardForm(h, s, await post(s, `/dashboard/holds/${id}/release`, { back: 'today' }));
    expect(done.location).toMatch(/^\/dashboard\?done=/);
    expect(pageText(done.text)).toMatch(/Released the time pencilled in on Tue, Nov 24, 1:00 PM EST: it goes back to your open times/);
    expect(pageText(done.text)).not.toMatch(/Pencilled in until/);
  });

  it('says in words when the time ran out or was booked, and changes nothing', async () => {
    const s = await signedIn();
    const ranOut = await hold(s);
    await runOut(ranOut.hold_id);
    expect(await textOf(s, `/dashboard/holds/${ranOut.hold_id}/release`)).toContain(
      'The time pencilled in on Tue, Nov 24, 9:00 AM EST had run out already, so it no longer kept the time. Nothing changed.',
    );
    const used = await hold(s, { start: '2026-11-25T09:00:00-05:00' });
    const job = (await api.post(s, 'book_job', validBooking({ start: '2026-11-25T09:00:00-05:00', hold_id: used.hold_id }))).body;
    const done = await followDashboardForm(h, s, await post(s, `/dashboard/holds/${used.hold_id}/release`));
    expect(pageText(done.text)).toContain('The time pencilled in on Wed, Nov 25, 9:00 AM EST was booked: the job is on your schedule. Nothing changed.');
    expect((await api.get(s, 'schedule')).body.jobs.map((j: { booking_id: string }) => j.booking_id)).toEqual([job.booking_id]);
  });

  it("finds no other business's time: its page and form answer 404 in words and release nothing", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const theirs = await hold(b);
    expect(await textOf(a, `/dashboard/holds/${theirs.hold_id}/release`, 404)).toMatch(/That pencilled-in time is not on your schedule/);
    const refused = await post(a, `/dashboard/holds/${theirs.hold_id}/release`).expect(404);
    expect(pageText(refused.text)).toMatch(/That pencilled-in time is not on your schedule/);
    expect((await api.get(b, 'schedule')).body.holds).toHaveLength(1);
    await textOf(a, '/dashboard/holds/hold_nothing/release', 404);
  });
});

describe('Today', () => {
  it('shows today’s jobs before what is new, and the booking page address as text with a copy button', async () => {
    const s = await signedIn();
    await api.post(s, 'book_job', validBooking());
    await h.t.db
      .insertInto('notifications')
      .values({ id: `ntf_order${seq}`, pro_id: s.pro.id, booking_id: null, kind: 'booking.created', message: 'New booking by ChatGPT for Tue', read_at: null })
      .execute();
    const tuesday = await at(s, TUESDAY_7AM);
    const page = (await h.api.get('/dashboard').set('Cookie', tuesday.cookie).expect(200)).text;
    const [jobs, fresh] = [page.indexOf('<h2 id="today">'), page.indexOf('<h2 id="new">')];
    expect(jobs).toBeGreaterThan(0);
    expect(fresh).toBeGreaterThan(jobs);
    expect(pageText(page)).toMatch(/Today's jobs Tue, Nov 24, 9:00 AM EST Standard clean for Ana Lopez.* New \(1\) New booking by ChatGPT/);
    const address = `http://book.test/book/${s.pro.id}`;
    expect(page).toContain(`<label for="booking-page-url">Your booking page address</label>`);
    expect(page).toContain(`<input id="booking-page-url" type="text" readonly value="${address}" />`);
    expect(page).toContain(`<a href="${address}">See your booking page</a>`);
    expect(page).toContain('<button type="button" data-copy="booking-page-url" hidden>Copy the address</button>');
    expect(page).toContain('<script src="/dashboard/copy.js"></script>');
    expect((await api.get(s, 'my_business')).body.booking_page).toBe(address);
  });

  it('keeps a job reported as a no-show on Today and Schedule that day, marked, with nothing left to do to it', async () => {
    const monday = await signedIn();
    const job = (await api.post(monday, 'book_job', validBooking())).body;
    const s = await at(monday, new Date('2026-11-24T14:30:00Z')); // 9:30 AM in New York, half an hour in
    await api.post(s, 'report_no_show', { booking_id: job.booking_id });
    for (const path of ['/dashboard', '/dashboard/schedule']) {
      const page = (await h.api.get(path).set('Cookie', s.cookie).expect(200)).text;
      expect(pageText(page)).toMatch(/Tue, Nov 24, 9:00 AM EST \(no-show\) Standard clean for Ana Lopez.* No-show : reported; the job stays in your records\./);
      expect(page).toContain('<article class="job no-show">');
      expect(page).not.toContain(`/dashboard/jobs/${job.booking_id}/`);
    }
    const wednesday = await at(s, new Date('2026-11-25T12:00:00Z')); // the next day: it is no longer listed
    expect(await textOf(wednesday, '/dashboard/schedule')).not.toMatch(/Ana Lopez/);
  });
});
