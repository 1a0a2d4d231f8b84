// The business's dashboard and calendar feed (src/dashboard).
import ICAL from 'ical.js';
import { signInCodeSentTo } from '@frontdesk/db/testing';
import { DEFAULT_WEEKLY_HOURS } from '@frontdesk/domain';
import { proDeskHarnessPerFile, newPro, validBooking, MONDAY_7AM } from './harness';

const h = proDeskHarnessPerFile();

let seq = 0;
/** A business with an owner's address, and a dashboard session for it. */
async function signedIn(over: Parameters<typeof newPro>[1] = {}) {
  const email = `owner${(seq += 1)}@dash.example`;
  return signIn(await newPro(h, { owner_email: email, ...over }), email);
}

/** Signs in to the dashboard of a business as its owner, by the emailed code. */
async function signIn(pro: Awaited<ReturnType<typeof newPro>>, email: string) {
  await h.api.post('/dashboard/code').type('form').send({ email }).expect(200);
  const verified = await h.api
    .post('/dashboard/verify')
    .type('form')
    .send({ email, code: await signInCodeSentTo(h.t.db, email) })
    .expect(303);
  const cookie = String((verified.headers['set-cookie'] as unknown as string[])[0]).split(';')[0]!;
  const page = await h.api.get('/dashboard').set('Cookie', cookie).expect(200);
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
  return { ...pro, email, cookie, csrf, page: page.text };
}
type Session = Awaited<ReturnType<typeof signedIn>>;
const post = (s: Session, path: string, form: Record<string, string> = {}) =>
  h.api
    .post(path)
    .set('Cookie', s.cookie)
    .type('form')
    .send({ csrf: s.csrf, ...form });
const pageOf = async (s: Session) => (await h.api.get('/dashboard').set('Cookie', s.cookie).expect(200)).text;

describe('signing in to the dashboard', () => {
  it('takes the emailed code of the address the business signed up with, and sets a session cookie for /dashboard', async () => {
    const s = await signedIn();
    expect(s.page).toContain(`<h1>${s.pro.name}</h1>`);
    expect(s.page).toContain(`Signed in as <strong>${s.email}</strong>`);
    const again = await h.api.get('/dashboard').expect(200);
    expect(again.text).toMatch(/Business email/);
    await h.api.post('/dashboard/sign-out').set('Cookie', s.cookie).expect(303);
    expect((await h.api.get('/dashboard').set('Cookie', s.cookie).expect(200)).text).toMatch(/Business email/);
  });

  it('tells an address with no business to sign up, and opens no session', async () => {
    const email = 'nobody@dash.example';
    await h.api.post('/dashboard/code').type('form').send({ email }).expect(200);
    const res = await h.api
      .post('/dashboard/verify')
      .type('form')
      .send({ email, code: await signInCodeSentTo(h.t.db, email) })
      .expect(404);
    expect(res.text).toMatch(/No business has signed up with <strong>nobody@dash.example<\/strong>[\s\S]*href="\/signup"/);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a form without the session’s form token, from another site, or after sign-out', async () => {
    const s = await signedIn();
    await h.api.post('/dashboard/prices').set('Cookie', s.cookie).type('form').send({ base: '10' }).expect(401);
    await post(s, '/dashboard/prices', { base: '10' }).set('Origin', 'https://evil.example').expect(403);
    await h.api.post('/dashboard/prices').type('form').send({ csrf: s.csrf, base: '10' }).expect(401);
    expect((await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body.prices.base).toBe(60);
  });
});

describe('what the dashboard shows', () => {
  it('lists today’s and upcoming jobs with contact and address, and new bookings as notifications until read', async () => {
    const s = await signedIn();
    const job = (await h.api.post('/api/v1/book_job').set(s.auth).set('X-Client-Name', 'Claude').send(validBooking()).expect(200)).body;
    await h.t.db
      .insertInto('notifications')
      .values({
        id: 'ntf_dash1',
        pro_id: s.pro.id,
        booking_id: job.booking_id,
        kind: 'booking.created',
        message: 'New booking by ChatGPT for Tue',
        read_at: null,
      })
      .execute();
    const page = await pageOf(s);
    expect(page).toMatch(/Coming up[\s\S]*Tue, Nov 24, 9:00 AM EST[\s\S]*Ana Lopez[\s\S]*12 Grove St, Apt 3, 10001[\s\S]*href="tel:2125550100"/);
    expect(page).toMatch(/booked by you through Claude/);
    expect(page).toMatch(/Notifications \(1 new\)[\s\S]*New booking by ChatGPT for Tue/);
    await post(s, '/dashboard/notifications/read', { id: 'ntf_dash1' }).expect(200);
    expect(await pageOf(s)).toMatch(/Notifications<\/h2><p>Nothing new/);
  });

  it('shows follow-ups due with their drafts, and the month with spend by platform', async () => {
    const email = 'follow@dash.example';
    const pro = await newPro(h, { owner_email: email });
    await h.api
      .post('/api/v1/log_lead')
      .set(pro.auth)
      .send({ source: 'marketplace_1', lead_ref: 'MK-1', lead_cost: 30, bedrooms: 2, bathrooms: 1 })
      .expect(200);
    h.clock.now = new Date(MONDAY_7AM.getTime() + 25 * 3_600_000);
    const { page } = await signIn(pro, email);
    expect(page).toMatch(/Follow-ups due \(1\)[\s\S]*marketplace_1 MK-1: follow-up 1[\s\S]*<textarea id="draft-0" rows="5" readonly>Hi/);
    expect(page).toMatch(/1 leads, \$30 spent/);
    expect(page).toMatch(/<svg role="img" aria-label="Lead spend by platform this month"/);
  });
});

describe('changing settings through the forms', () => {
  it('closes Saturday and raises a price, and the API answers with both at once', async () => {
    const s = await signedIn();
    const hours = {
      monday: '08:00-17:00',
      tuesday: '08:00-17:00',
      wednesday: '08:00-17:00',
      thursday: '08:00-17:00',
      friday: '08:00-17:00',
      saturday: '',
      sunday: '',
    };
    expect((await post(s, '/dashboard/hours', hours).expect(200)).text).toMatch(/Saved your working hours/);
    const page = await pageOf(s);
    const prices = Object.fromEntries(
      [...page.matchAll(/name="(base|per_bedroom|per_bathroom|minimum|pets_fee|crew_size|weekly|biweekly|monthly)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    expect(prices).toMatchObject({ base: '60', crew_size: '2', weekly: '20' });
    await post(s, '/dashboard/prices', { ...prices, base: '80', first_visit: 'discounted' }).expect(200);
    expect((await h.api.get('/api/v1/quote_job').query({ bedrooms: 2, bathrooms: 1 }).set(s.auth).expect(200)).body.total).toBe(145);
    const open = await h.api.get('/api/v1/open_times').query({ bedrooms: 2, bathrooms: 1, date: '2026-11-28', days: 1 }).set(s.auth).expect(200);
    expect(open.body.open_times).toEqual([]);
    expect((await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body.prices.frequency_discounts_pct).toEqual({
      weekly: 20,
      biweekly: 15,
      monthly: 10,
    });
  });

  it('shows a bad value on the page with the field named, and writes nothing', async () => {
    const s = await signedIn();
    const res = await post(s, '/dashboard/prices', { base: '20000' }).expect(400);
    expect(res.text).toMatch(/role="alert">prices\.base must be at most 10000\./);
    const hours = await post(s, '/dashboard/hours', { monday: '17:00-08:00' }).expect(400);
    expect(hours.text).toMatch(/working_hours\.monday: &quot;17:00-08:00&quot; must end after it starts/);
    const shown = (await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body;
    expect(shown.prices.base).toBe(60);
    expect(shown.working_hours.monday).toEqual(['08:00-17:00']);
  });

  it('adds, removes and renames add-ons, changes the profile, and takes and gives back a day off', async () => {
    const s = await signedIn();
    const page = await pageOf(s);
    const rows = Number(/name="rows" value="(\d+)"/.exec(page)![1]);
    const form: Record<string, string> = { rows: String(rows) };
    for (const m of page.matchAll(/name="(addon_(?:name|label|price|minutes)_\d+)" value="([^"]*)"/g)) form[m[1]!] = m[2]!;
    form.addon_remove_0 = '1'; // cabinets
    Object.assign(form, {
      [`addon_name_${rows - 1}`]: 'balcony',
      [`addon_label_${rows - 1}`]: 'Balcony sweep',
      [`addon_price_${rows - 1}`]: '15',
      [`addon_minutes_${rows - 1}`]: '20',
    });
    await post(s, '/dashboard/add-ons', form).expect(200);
    const addOns = (await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body.add_ons.map((a: { name: string }) => a.name);
    expect(addOns).toEqual(['balcony', 'fridge', 'laundry', 'oven', 'windows']);

    await post(s, '/dashboard/profile', {
      name: 'Renamed Co',
      phone: '',
      email: 'hi@renamed.example',
      website: '',
      service_zips: '10001, 10002',
      travel_buffer_minutes: '15',
      slot_step_minutes: '30',
      min_notice_hours: '24',
    }).expect(200);
    expect((await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body).toMatchObject({
      name: 'Renamed Co',
      phone: null,
      service_zips: ['10001', '10002'],
      travel_buffer_minutes: 15,
      min_notice_hours: 24,
    });

    await h.api
      .post('/api/v1/book_job')
      .set(s.auth)
      .send(validBooking({ start: '2026-11-25T10:00:00-05:00' }))
      .expect(200);
    const off = await post(s, '/dashboard/time-off', { start: '2026-11-25', end: '2026-11-25', note: 'Dentist' }).expect(200);
    expect(off.text).toMatch(/Time off saved[\s\S]*Wed, Nov 25, 10:00 AM EST, Ana Lopez/);
    expect(off.text).toMatch(/Wed, Nov 25, all day \(Dentist\)/);
    const id = /name="time_off_id" value="([^"]+)"/.exec(off.text)![1]!;
    await post(s, '/dashboard/time-off/remove', { time_off_id: id }).expect(200);
    expect((await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body.time_off).toEqual([]);
  });

  it("acts only on the signed-in business: another business's time off cannot be removed", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const off = (await h.api.post('/api/v1/add_time_off').set(b.auth).send({ start: '2026-11-27', end: '2026-11-27' }).expect(200)).body;
    await post(a, '/dashboard/time-off/remove', { time_off_id: off.time_off_id }).expect(404);
    expect((await h.api.get('/api/v1/my_business').set(b.auth).expect(200)).body.time_off).toHaveLength(1);
  });
});

describe('keys and the calendar feed', () => {
  it('makes a new key, shown once, and the old one gets 401', async () => {
    const s = await signedIn();
    const res = await post(s, '/dashboard/key').expect(201);
    const key = /id="new-key">(fdk_[A-Za-z0-9]{32})</.exec(res.text)![1]!;
    await h.api.get('/api/v1/my_business').set(s.auth).expect(401);
    await h.api.get('/api/v1/my_business').set('Authorization', `Bearer ${key}`).expect(200);
    expect(await pageOf(s)).not.toContain(key);
  });

  it('serves the jobs as iCalendar that an independent parser reads at the right instants, DST days included; a new address ends the old', async () => {
    const everyDay = { ...DEFAULT_WEEKLY_HOURS, '7': [{ start: '08:00', end: '17:00' }] };
    const s = await signedIn({ weekly_hours: everyDay, service_zips: ['10001'] });
    const book = (start: string) =>
      h.api
        .post('/api/v1/book_job')
        .set(s.auth)
        .send(validBooking({ start, notes: 'Gate code 4321; ring twice' }))
        .expect(200);
    const plain = (await book('2026-11-24T09:00:00-05:00')).body;
    // Sunday 2027-03-14: clocks spring forward at 02:00 in New York; Sunday 2027-11-07 they fall back.
    const spring = (await book('2027-03-14T10:00:00-04:00')).body;
    const fall = (await book('2027-11-07T10:00:00-05:00')).body;
    const gone = (await book('2026-11-25T09:00:00-05:00')).body;
    await h.api.post('/api/v1/cancel_job').set(s.auth).send({ booking_id: gone.booking_id }).expect(200);

    const made = await post(s, '/dashboard/calendar').expect(201);
    const url = new URL(/id="calendar-url">([^<]+)</.exec(made.text)![1]!);
    const feed = await h.api.get(url.pathname).expect(200);
    expect(feed.headers['content-type']).toMatch(/^text\/calendar; charset=utf-8/);
    expect(feed.text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(feed.text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);

    const calendar = new ICAL.Component(ICAL.parse(feed.text));
    const zone = calendar.getFirstSubcomponent('vtimezone')!;
    expect(zone.getFirstPropertyValue('tzid')).toBe('America/New_York');
    ICAL.TimezoneService.register(zone);
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    const byUid = new Map(events.map((e) => [e.uid.split('@')[0], e]));
    for (const job of [plain, spring, fall]) {
      const event = byUid.get(job.booking_id)!;
      expect([job.booking_id, event.startDate.toJSDate().toISOString()]).toEqual([job.booking_id, new Date(job.start).toISOString()]);
      expect(event.endDate.toJSDate().toISOString()).toBe(new Date(job.end).toISOString());
      expect(event.location).toBe('12 Grove St, Apt 3, 10001');
      expect(event.description).toMatch(/Phone: \(212\) 555-0100[\s\S]*Notes: Gate code 4321; ring twice/);
      expect(event.component.getFirstPropertyValue('status')).toBe('CONFIRMED');
    }
    expect(byUid.get(spring.booking_id)!.startDate.toString()).toBe('2027-03-14T10:00:00');
    expect(byUid.get(gone.booking_id)!.component.getFirstPropertyValue('status')).toBe('CANCELLED');

    // Current on the next fetch: a job booked now is in it.
    const later = (await book('2026-11-26T13:00:00-05:00')).body;
    expect((await h.api.get(url.pathname).expect(200)).text).toContain(`UID:${later.booking_id}@`);

    const remade = await post(s, '/dashboard/calendar').expect(201);
    await h.api.get(url.pathname).expect(404);
    const next = new URL(/id="calendar-url">([^<]+)</.exec(remade.text)![1]!);
    await h.api.get(next.pathname).expect(200);
    expect(await pageOf(s)).toMatch(/secret address ending in …/);
  });
});
