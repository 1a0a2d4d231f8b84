// The business's dashboard and calendar feed (src/dashboard).
import ICAL from 'ical.js';
import { signInCodeSentTo } from '@frontdesk/db/testing';
import { DEFAULT_WEEKLY_HOURS, isSingleLine } from '@frontdesk/domain';
import { dashboardSession, proDeskHarnessPerFile, newPro, validBooking, MONDAY_7AM, postDashboardForm, followDashboardForm } from '@frontdesk/dev-env/pro-desk';
import { cookiesFrom } from '@frontdesk/dev-env/cookie-jar';

const h = proDeskHarnessPerFile();

let seq = 0;
/** A business with an owner's address, and a dashboard session for it. */
async function signedIn(over: Parameters<typeof newPro>[1] = {}) {
  const email = `owner${(seq += 1)}@dash.example`;
  return signIn(await newPro(h, { owner_email: email, ...over }), email);
}

/** Signs in to the dashboard of a business as its owner, by the emailed code. */
async function signIn(pro: Awaited<ReturnType<typeof newPro>>, email: string) {
  const { cookie, csrf, page } = await dashboardSession(h, email);
  return { ...pro, email, cookie, csrf, page };
}
type Session = Awaited<ReturnType<typeof signedIn>>;
const post = (s: Session, path: string, form: Record<string, string> = {}) => postDashboardForm(h, s, path, form);
const pageOf = async (s: Session, path = '/dashboard') => (await h.api.get(path).set('Cookie', s.cookie).expect(200)).text;

const follow = (s: Session, res: { status: number; headers: Record<string, unknown> }) => followDashboardForm(h, s, res);
/** A page's markup without the isolates around text people typed. */
const plain = (page: string) => page.replace(/<\/?bdi>/g, '');
/** The value an input of the form shows, whatever its attributes' order. */
const inputs = (page: string, names: RegExp) =>
  Object.fromEntries(
    [...page.matchAll(/<input([^>]*)>/g)].flatMap((m) => {
      const name = /name="([^"]+)"/.exec(m[1]!)?.[1];
      const value = /value="([^"]*)"/.exec(m[1]!)?.[1];
      return name && names.test(name) && value !== undefined ? [[name, value]] : [];
    }),
  );

describe('signing in to the dashboard', () => {
  it('answers the code step with a redirect to the code form, which a reload shows again without mailing another code', async () => {
    const email = 'reload@dash.example';
    await newPro(h, { owner_email: email });
    const sent = await h.api.post('/dashboard/code').type('form').send({ email }).expect(303);
    const cookie = cookiesFrom(sent);
    const where = String(sent.headers.location);
    expect(where).toMatch(/^\/dashboard\/code\?sent=[A-Za-z0-9_-]+$/);
    const mailed = async () => (await h.t.db.selectFrom('outbox').select('id').where('to_address', '=', email).execute()).length;
    expect(await mailed()).toBe(1);
    for (let i = 0; i < 2; i++)
      expect((await h.api.get(where).set('Cookie', cookie).expect(200)).text).toMatch(/We sent a 6-digit code to <strong>reload@dash.example<\/strong>/);
    expect(await mailed()).toBe(1);
  });

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
    await h.api.post('/dashboard/code').type('form').send({ email }).expect(303);
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
    const page = await pageOf(s, '/dashboard/schedule');
    expect(plain(page)).toMatch(/Coming up[\s\S]*Tue, Nov 24, 9:00 AM EST[\s\S]*Ana Lopez[\s\S]*12 Grove St, Apt 3, 10001[\s\S]*href="tel:2125550100"/);
    expect(plain(page)).toMatch(/Booked by you through Claude/);
    const today = plain(await pageOf(s));
    expect(today).toMatch(/New \(1\)[\s\S]*New booking by ChatGPT for Tue/);
    expect(today.split('New booking by ChatGPT for Tue')).toHaveLength(2); // listed once, as new
    const seen = await follow(s, await post(s, '/dashboard/notifications/read', { id: 'ntf_dash1' }));
    expect(seen.text).toMatch(/Nothing new since you last looked/);
    // Still listed as what happened lately.
    expect(plain(seen.text)).toMatch(/What happened lately[\s\S]*New booking by ChatGPT for Tue/);
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
    const s = await signIn(pro, email);
    expect(s.page).toMatch(/1 follow-up due now/);
    expect(plain(await pageOf(s, '/dashboard/leads'))).toMatch(
      /Follow-ups due \(1\)[\s\S]*marketplace_1 MK-1: follow-up 1[\s\S]*<textarea id="draft-0" rows="5" readonly>Hi/,
    );
    const month = await pageOf(s, '/dashboard/month');
    expect(month).toMatch(/1 lead, \$30\.00 spent\. None of them booked yet\./);
    expect(month).toMatch(/<strong>0 jobs<\/strong> worth <strong>\$0\.00<\/strong>/);
    expect(month).toMatch(/<td>Marketplace 1<\/td>/);
    expect(month).toMatch(/<svg role="img" aria-label="Lead spend by platform this month"/);
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
    const saved = await follow(s, await post(s, '/dashboard/hours', hours));
    expect(saved.location).toMatch(/^\/dashboard\/settings\/hours\?done=[A-Za-z0-9_-]+$/);
    expect(saved.text).toMatch(/Saved your working hours/);
    const prices = inputs(
      await pageOf(s, '/dashboard/settings/prices'),
      /^(base|per_bedroom|per_bathroom|minimum|pets_fee|crew_size|weekly|biweekly|monthly)$/,
    );
    expect(prices).toMatchObject({ base: '60', crew_size: '2', weekly: '20' });
    await follow(s, await post(s, '/dashboard/prices', { ...prices, base: '80', first_visit: 'discounted' }));
    expect((await h.api.get('/api/v1/quote_job').query({ bedrooms: 2, bathrooms: 1 }).set(s.auth).expect(200)).body.total).toBe(145);
    const open = await h.api.get('/api/v1/open_times').query({ bedrooms: 2, bathrooms: 1, date: '2026-11-28', days: 1 }).set(s.auth).expect(200);
    expect(open.body.open_times).toEqual([]);
    expect((await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body.prices.frequency_discounts_pct).toEqual({
      weekly: 20,
      biweekly: 15,
      monthly: 10,
    });
  });

  it('turns the mails about customers’ bookings off and on again, as my_business shows', async () => {
    const s = await signedIn();
    const box = (page: string) => /<input type="checkbox" name="email_me_customer_changes"[^>]*>/.exec(page)?.[0];
    expect(box(await pageOf(s, '/dashboard/settings/notices'))).toMatch(/checked/);
    const off = await follow(s, await post(s, '/dashboard/mail', {}));
    expect(off.text).toMatch(/Saved which mails you get/);
    expect(box(off.text)).toBeDefined();
    expect(box(off.text)).not.toMatch(/checked/);
    expect((await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body.email_me_customer_changes).toBe(false);
    await follow(s, await post(s, '/dashboard/mail', { email_me_customer_changes: 'on' }));
    expect((await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body.email_me_customer_changes).toBe(true);
  });

  it('sets the reminders and the review request customers get, keeps what was typed after a refusal, and shows them as my_business does', async () => {
    const s = await signedIn();
    const fields = /^(customer_reminders\[[01]\]|link|delay_hours)$/;
    expect(inputs(await pageOf(s, '/dashboard/settings/messages'), fields)).toMatchObject({ 'customer_reminders[0]': '24', 'customer_reminders[1]': '' });
    const typed = { 'customer_reminders[0]': '48', 'customer_reminders[1]': '3', review_on: 'on', link: 'http://reviews.example/us', delay_hours: '4' };
    const refused = await post(s, '/dashboard/messages', typed).expect(400);
    expect(refused.text).toMatch(/role="alert">[^<]*https/);
    expect(refused.text).not.toMatch(/review_request\.link/);
    expect(inputs(refused.text, fields)).toMatchObject({ 'customer_reminders[0]': '48', link: 'http://reviews.example/us', delay_hours: '4' });
    expect((await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body.review_request).toBeNull();
    const saved = await follow(s, await post(s, '/dashboard/messages', { ...typed, link: 'https://reviews.example/us' }));
    expect(saved.text).toMatch(/Saved the messages your customers get/);
    expect(inputs(saved.text, fields)).toMatchObject({ 'customer_reminders[0]': '48', 'customer_reminders[1]': '3', link: 'https://reviews.example/us' });
    expect((await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body).toMatchObject({
      customer_reminders: [48, 3],
      review_request: { link: 'https://reviews.example/us', delay_hours: 4 },
    });
    await follow(s, await post(s, '/dashboard/messages', { 'customer_reminders[0]': '', 'customer_reminders[1]': '' }));
    expect((await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body).toMatchObject({ customer_reminders: [], review_request: null });
  });

  it('shows a bad value on the page in people’s words, the field marked and what was typed kept, and writes nothing', async () => {
    const s = await signedIn();
    const res = await post(s, '/dashboard/prices', { base: '20000', per_bedroom: '31' }).expect(400);
    expect(res.text).toMatch(/role="alert">Base, USD must be at most 10000\./);
    expect(res.text).not.toMatch(/prices\.base/);
    expect(res.text).toMatch(/name="base"[^>]*value="20000"[^>]*aria-invalid="true"[^>]*aria-describedby="f-base-error"/);
    expect(res.text).toMatch(/id="f-base-error">Base, USD must be at most 10000\./);
    expect(inputs(res.text, /^per_bedroom$/)).toEqual({ per_bedroom: '31' });
    const hours = await post(s, '/dashboard/hours', { monday: '17:00-08:00' }).expect(400);
    expect(hours.text).toMatch(/Monday: &quot;17:00-08:00&quot; must end after it starts/);
    expect(hours.text).toMatch(/name="monday"[^>]*value="17:00-08:00"[^>]*aria-invalid="true"/);
    const zips = await post(s, '/dashboard/area', { service_zips: '10001, 1002', travel_buffer_minutes: '15' }).expect(400);
    expect(zips.text).not.toMatch(/service_zips\[/);
    expect(zips.text).toMatch(/role="alert">Service ZIPs \(the second entry\) must be/);
    expect(zips.text).toMatch(/name="service_zips"[^>]*value="10001, 1002"[^>]*aria-invalid="true"/);
    const shown = (await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body;
    expect(shown.prices.base).toBe(60);
    expect(shown.working_hours.monday).toEqual(['08:00-17:00']);
  });

  it('adds, removes and renames add-ons, changes the profile, and takes and gives back a day off', async () => {
    const s = await signedIn();
    const page = await pageOf(s, '/dashboard/settings/add-ons');
    const rows = Number(/name="rows" value="(\d+)"/.exec(page)![1]);
    const form: Record<string, string> = { rows: String(rows), ...inputs(page, /^addon_(name|label|price|minutes)_\d+$/) };
    form.addon_remove_0 = '1'; // cabinets
    Object.assign(form, {
      [`addon_name_${rows - 1}`]: 'balcony',
      [`addon_label_${rows - 1}`]: 'Balcony sweep',
      [`addon_price_${rows - 1}`]: '15',
      [`addon_minutes_${rows - 1}`]: '20',
    });
    await follow(s, await post(s, '/dashboard/add-ons', form));
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
    }).expect(303);
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
    const off = await follow(s, await post(s, '/dashboard/time-off', { start: '2026-11-25', end: '2026-11-25', note: 'Dentist' }));
    expect(plain(off.text)).toMatch(
      /Time off saved[\s\S]*Wed, Nov 25, 10:00 AM EST, Ana Lopez[\s\S]*href="\/dashboard\/jobs\/[^/]+\/move">Move it<\/a> or <a href="\/dashboard\/jobs\/[^/]+\/cancel">cancel it/,
    );
    expect(off.text).toMatch(/Wed, Nov 25, all day \(Dentist\)/);
    const id = /href="\/dashboard\/time-off\/([^/]+)\/remove"/.exec(off.text)![1]!;
    const confirm = await pageOf(s, `/dashboard/time-off/${id}/remove`);
    expect(confirm).toMatch(/Removing this time off offers these days to customers again/);
    expect(confirm).toContain(`name="time_off_id" value="${id}"`);
    expect((await follow(s, await post(s, '/dashboard/time-off/remove', { time_off_id: id }))).text).toMatch(/Time off removed/);
    expect((await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body.time_off).toEqual([]);
  });

  it("acts only on the signed-in business: another business's time off cannot be removed", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const off = (await h.api.post('/api/v1/add_time_off').set(b.auth).send({ start: '2026-11-27', end: '2026-11-27' }).expect(200)).body;
    const refused = await post(a, '/dashboard/time-off/remove', { time_off_id: off.time_off_id }).expect(404);
    expect(refused.text).toMatch(/role="alert">That time off is not in your settings/);
    expect((await h.api.get('/api/v1/my_business').set(b.auth).expect(200)).body.time_off).toHaveLength(1);
  });
});

describe('settings, one short page each', () => {
  const PAGES = [
    ['prices', 'Prices', '/dashboard/prices'],
    ['add-ons', 'Add-ons', '/dashboard/add-ons'],
    ['hours', 'Working hours', '/dashboard/hours'],
    ['area', 'Service area', '/dashboard/area'],
    ['time-off', 'Time off', '/dashboard/time-off'],
    ['notices', 'Notices', '/dashboard/mail'],
    ['messages', 'Customer messages', '/dashboard/messages'],
    ['booking-page', 'Booking page', '/dashboard/profile'],
  ] as const;

  it('lists each page on the index, and shows each at its own address with one form, the list beside it marking where the owner is', async () => {
    const s = await signedIn();
    const index = await pageOf(s, '/dashboard/settings');
    for (const [page, title, form] of PAGES) {
      expect([page, index]).toEqual([page, expect.stringContaining(`<a href="/dashboard/settings/${page}">${title}</a>`)]);
      const shown = await pageOf(s, `/dashboard/settings/${page}`);
      expect([page, shown]).toEqual([page, expect.stringContaining(`<h1>${title}</h1>`)]);
      expect([page, shown]).toEqual([page, expect.stringMatching(new RegExp(`<a href="/dashboard/settings"\\s+aria-current="page">Settings</a>`))]);
      expect([page, shown]).toEqual([page, expect.stringMatching(new RegExp(`<a href="/dashboard/settings/${page}"\\s+aria-current="page">${title}</a>`))]);
      expect([page, [...shown.matchAll(/<form method="post" action="([^"]+)" novalidate>/g)].map((m) => m[1])]).toEqual([page, [form]]);
      // The form's own address, and the one the page had before Settings was split, show the same page.
      expect([page, await pageOf(s, form)]).toEqual([page, expect.stringContaining(`<h1>${title}</h1>`)]);
    }
  });

  it("shows the business's booking page address as text with a copy button, on the index and the booking page's page", async () => {
    const s = await signedIn();
    for (const path of ['/dashboard/settings', '/dashboard/settings/booking-page']) {
      const page = await pageOf(s, path);
      const address = new RegExp(`<input id="booking-page-url" type="text" readonly value="(https?://[^"]+/book/${s.pro.id})" />`);
      expect([path, page]).toEqual([path, expect.stringMatching(address)]);
      expect([path, page]).toEqual([path, expect.stringContaining('<button type="button" data-copy="booking-page-url" hidden>Copy the address</button>')]);
      expect([path, page]).toEqual([path, expect.stringContaining('<script src="/dashboard/copy.js"></script>')]);
      expect(address.exec(page)![1]).toBe((await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body.booking_page);
    }
  });

  it('saves the area and the booking page each from its own form, leaving what the other holds, and answers on the page of the form', async () => {
    const s = await signedIn();
    const area = await follow(s, await post(s, '/dashboard/area', { service_zips: '10001, 10003', travel_buffer_minutes: '20' }));
    expect(area.location).toMatch(/^\/dashboard\/settings\/area\?done=/);
    expect(area.text).toMatch(/Saved your service area/);
    expect(inputs(area.text, /^service_zips$/)).toEqual({ service_zips: '10001, 10003' });
    const profile = await follow(
      s,
      await post(s, '/dashboard/profile', { name: 'Page Co', phone: '', email: '', website: '', slot_step_minutes: '30', min_notice_hours: '12' }),
    );
    expect(profile.location).toMatch(/^\/dashboard\/settings\/booking-page\?done=/);
    expect((await h.api.get('/api/v1/my_business').set(s.auth).expect(200)).body).toMatchObject({
      name: 'Page Co',
      service_zips: ['10001', '10003'],
      travel_buffer_minutes: 20,
      min_notice_hours: 12,
    });
  });
});

describe('keys and the calendar feed', () => {
  it('asks before making a new key, shows the new one from a sealed reference that a reload shows again, and the old one gets 401', async () => {
    const s = await signedIn();
    expect(await pageOf(s, '/dashboard/key')).toMatch(/Your current key stops working the moment you make a new one/);
    const made = await follow(s, await post(s, '/dashboard/key'));
    const key = /id="new-key">(fdk_[A-Za-z0-9]{32})</.exec(made.text)![1]!;
    // A reload shows the same key and makes no other: the shown key keeps working.
    const again = (await h.api.get(made.location).set('Cookie', made.cookie).expect(200)).text;
    expect(/id="new-key">(fdk_[A-Za-z0-9]{32})</.exec(again)![1]).toBe(key);
    await h.api.get('/api/v1/my_business').set(s.auth).expect(401);
    await h.api.get('/api/v1/my_business').set('Authorization', `Bearer ${key}`).expect(200);
    // Without the sealed cookie (another browser), the address shows no key.
    expect(await pageOf(s, made.location)).not.toContain(key);
    expect(await pageOf(s, '/dashboard/keys')).not.toContain(key);
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

    const made = await follow(s, await post(s, '/dashboard/calendar'));
    expect((await h.api.get(made.location).set('Cookie', made.cookie).expect(200)).text).toContain(/id="calendar-url">([^<]+)</.exec(made.text)![1]!);
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

    const remade = await follow(s, await post(s, '/dashboard/calendar'));
    await h.api.get(url.pathname).expect(404);
    const next = new URL(/id="calendar-url">([^<]+)</.exec(remade.text)![1]!);
    await h.api.get(next.pathname).expect(200);
    expect(await pageOf(s, '/dashboard/keys')).toMatch(/secret address ending in …/);
  });
});

describe('pages of their own, and every form address a page', () => {
  it('shows each section as its own page with the navigation marking where the owner is', async () => {
    const s = await signedIn();
    for (const [path, heading] of [
      ['/dashboard/schedule', 'Schedule'],
      ['/dashboard/clients', 'Clients'],
      ['/dashboard/leads', 'Leads and follow-ups'],
      ['/dashboard/month', 'Month'],
      ['/dashboard/settings', 'Settings'],
      ['/dashboard/keys', 'Keys and calendar'],
      ['/dashboard/webhooks', 'Webhooks'],
    ]) {
      const page = await pageOf(s, path);
      expect([path, page]).toEqual([path, expect.stringContaining(`<h1>${heading}</h1>`)]);
      expect(page).toMatch(new RegExp(`<a href="${path}"\\s+aria-current="page">`));
    }
  });

  it.each([
    '/dashboard/hours',
    '/dashboard/prices',
    '/dashboard/add-ons',
    '/dashboard/area',
    '/dashboard/profile',
    '/dashboard/mail',
    '/dashboard/time-off',
    '/dashboard/time-off/remove',
    '/dashboard/key',
    '/dashboard/calendar',
    '/dashboard/notifications/read',
    '/dashboard/sign-out',
    '/dashboard/code',
    '/dashboard/verify',
  ])('GET %s shows a page, never JSON', async (path) => {
    const s = await signedIn();
    const res = await h.api.get(path).set('Cookie', s.cookie).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/<main>/);
    expect(res.text).not.toMatch(/There is no GET/);
  });
});

describe('a job from the dashboard: cancel, move, no-show, each after a page saying what will happen', () => {
  it('cancels through cancel_job, saying the customer is not told and how to reach them', async () => {
    const s = await signedIn();
    const job = (
      await h.api
        .post('/api/v1/book_job')
        .set(s.auth)
        .send(validBooking({ customer_email: 'ana@example.com' }))
        .expect(200)
    ).body;
    const confirm = await pageOf(s, `/dashboard/jobs/${job.booking_id}/cancel`);
    expect(plain(confirm)).toMatch(
      /Cancelling takes this job off your schedule[\s\S]*No fee is charged\.[\s\S]*We do not email or text Ana Lopez about this: call them at/,
    );
    const done = await follow(s, await post(s, `/dashboard/jobs/${job.booking_id}/cancel`));
    expect(done.location).toMatch(/^\/dashboard\/schedule\?done=/);
    expect(plain(done.text)).toContain(
      'Cancelled Ana Lopez&#39;s job on Tue, Nov 24, 9:00 AM EST. No fee. We have not told Ana Lopez; call them at (212) 555-0100 or write to ana@example.com to let them know.',
    );
    expect(done.text).not.toMatch(/\(\(/);
    const sched = (await h.api.get('/api/v1/schedule').set(s.auth).expect(200)).body;
    expect(sched.jobs).toEqual([]);
    // Cancelled again (a second tab): the page says why, nothing changes.
    const again = await post(s, `/dashboard/jobs/${job.booking_id}/cancel`).expect(400);
    expect(again.text).toMatch(/role="alert">[^<]*already cancelled/);
  });

  it('moves through reschedule_job: the open times grouped by day with none picked, then a confirmation', async () => {
    const s = await signedIn();
    const job = (await h.api.post('/api/v1/book_job').set(s.auth).send(validBooking()).expect(200)).body;
    const times = await pageOf(s, `/dashboard/jobs/${job.booking_id}/move`);
    expect(times).toMatch(/<legend>Tue, Nov 24<\/legend>/);
    expect(times).toMatch(/<legend>Wed, Nov 25<\/legend>/);
    expect(times).not.toMatch(/checked/);
    const start = /name="start" value="(2026-11-25T10:00:00-05:00)"/.exec(times)![1]!;
    const unpicked = await pageOf(s, `/dashboard/jobs/${job.booking_id}/move/confirm`);
    expect(unpicked).toMatch(/role="alert">Pick one of the open times first/);
    const confirm = await pageOf(s, `/dashboard/jobs/${job.booking_id}/move/confirm?start=${encodeURIComponent(start)}`);
    expect(plain(confirm)).toMatch(/to <strong>Wed, Nov 25, 10:00 AM EST<\/strong>\? The price stays as booked/);
    const done = await follow(s, await post(s, `/dashboard/jobs/${job.booking_id}/move`, { start }));
    expect(plain(done.text)).toMatch(/Moved Ana Lopez&#39;s job from Tue, Nov 24, 9:00 AM EST to Wed, Nov 25, 10:00 AM EST/);
    const sched = (await h.api.get('/api/v1/schedule').set(s.auth).expect(200)).body;
    expect(sched.jobs.map((j: { start: string }) => j.start)).toEqual([start]);
  });

  it('reports a no-show through report_no_show once the job has started, and offers it only then', async () => {
    const s = await signedIn();
    const job = (await h.api.post('/api/v1/book_job').set(s.auth).send(validBooking()).expect(200)).body;
    expect(await pageOf(s, '/dashboard/schedule')).not.toMatch(/Report a no-show/);
    h.clock.now = new Date('2026-11-24T14:30:00Z'); // 9:30 AM in New York, half an hour in
    const later = await signIn(s, s.email);
    const today = later.page;
    expect(today).toContain(`href="/dashboard/jobs/${job.booking_id}/no-show">Report a no-show`);
    expect(await pageOf(later, `/dashboard/jobs/${job.booking_id}/no-show`)).toMatch(/neither showed up nor cancelled/);
    const done = await follow(later, await post(later, `/dashboard/jobs/${job.booking_id}/no-show`));
    expect(plain(done.text)).toMatch(/Recorded that Ana Lopez did not show up on Tue, Nov 24, 9:00 AM EST/);
  });

  it('finds no job of another business: its pages and forms answer 404 and change nothing', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const job = (await h.api.post('/api/v1/book_job').set(b.auth).send(validBooking()).expect(200)).body;
    const page = await h.api.get(`/dashboard/jobs/${job.booking_id}/cancel`).set('Cookie', a.cookie).expect(404);
    expect(page.text).toMatch(/That job is not on your schedule/);
    await post(a, `/dashboard/jobs/${job.booking_id}/cancel`).expect(404);
    expect((await h.api.get('/api/v1/schedule').set(b.auth).expect(200)).body.jobs).toHaveLength(1);
  });
});

describe('the dashboard keeps its own notifications', () => {
  it("still shows what is new after the assistant's schedule call read it, and schedule answers as before", async () => {
    const s = await signedIn();
    await h.t.db
      .insertInto('notifications')
      .values({ id: 'ntf_own1', pro_id: s.pro.id, booking_id: null, kind: 'booking.cancelled', message: 'Booking cancelled by the customer: Rae, Wed.' })
      .execute();
    const first = (await h.api.get('/api/v1/schedule').set(s.auth).expect(200)).body;
    expect(first.notifications.map((n: { message: string }) => n.message)).toEqual(['Booking cancelled by the customer: Rae, Wed.']);
    expect((await h.api.get('/api/v1/schedule').set(s.auth).expect(200)).body.notifications).toEqual([]);
    expect(plain(await pageOf(s))).toMatch(/New \(1\)[\s\S]*Booking cancelled by the customer: Rae, Wed\./);
    await follow(s, await post(s, '/dashboard/notifications/read', { id: 'ntf_own1' }));
    expect(await pageOf(s)).toMatch(/Nothing new since you last looked/);
  });
});

describe('text that cannot be stored, in a dashboard form', () => {
  it('is refused with a sentence, never a 500: the notifications to dismiss and a settings field', async () => {
    const s = await signedIn();
    const seen = await post(s, '/dashboard/notifications/read', { id: 'ntf_\u0000x' });
    expect([seen.status, seen.body.error ?? seen.text]).toEqual([400, expect.stringMatching(/cannot be stored/)]);
    const profile = await post(s, '/dashboard/profile', { name: 'Sunny\u0000Maids' });
    expect(profile.status).toBe(400);
    expect(profile.text).toMatch(/cannot be stored/);
  });
});

describe('values people typed are inert on every page', () => {
  const HOSTILE = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', 'javascript:alert(1)', '\u202Eevil'];
  it('shows hostile names, notes, addresses and contacts as text, never as markup or a link that runs', async () => {
    const s = await signedIn();
    const long = `N${'x'.repeat(10_000)}`;
    for (const [i, bad] of [...HOSTILE, long].entries()) {
      await h.t.db
        .insertInto('notifications')
        .values({ id: `ntf_bad${i}`, pro_id: s.pro.id, booking_id: null, kind: 'booking.created', message: `New booking: ${bad}` })
        .execute();
    }
    const jobs = [];
    for (const [i, bad] of [...HOSTILE, long.slice(0, 100)].entries()) {
      const start = `2026-11-${24 + Math.floor(i / 3)}T${String(9 + (i % 3) * 3).padStart(2, '0')}:00:00-05:00`;
      // A direction override is refused on the way in now; a row stored before keeps it: written straight into the row.
      const typed = isSingleLine(bad) ? bad : 'Placeholder';
      const fields = { customer_name: bad.slice(0, 100), notes: bad.slice(0, 500), address: `1 ${bad}`.slice(0, 300) };
      const body = validBooking({ start, customer_name: typed, notes: typed, address: `1 ${typed}`, customer_email: 'x@example.com' });
      const job = (await h.api.post('/api/v1/book_job').set(s.auth).send(body).expect(200)).body;
      if (typed !== bad) await h.t.db.updateTable('bookings').set(fields).where('id', '=', job.booking_id).execute();
      jobs.push(job);
    }
    await h.t.db.updateTable('bookings').set({ notes: 'Gate closed.', access_details: 'Code 12' }).where('id', '=', jobs[3].booking_id).execute();
    // Access details come from the booking page's customers: straight into the row here.
    await h.t.db.updateTable('bookings').set({ access_details: 'javascript:alert(1) <b>closed.</b>.' }).where('id', '=', jobs[4].booking_id).execute();
    const pages = [
      await pageOf(s),
      await pageOf(s, '/dashboard/schedule'),
      ...(await Promise.all(jobs.map((j) => pageOf(s, `/dashboard/jobs/${j.booking_id}/cancel`)))),
      await pageOf(s, `/dashboard/jobs/${jobs[0].booking_id}/move`),
    ];
    for (const page of pages) {
      expect(page).not.toMatch(/<script>alert|<img src=x|onerror=alert\(1\)>|href="javascript:/i);
      // A direction override only ever inside an isolate, so it cannot turn the words around it.
      const overrides = page.split('\u202E').length - 1;
      expect(page.match(/<bdi>[^<]*\u202E[^<]*<\/bdi>/g) ?? []).toHaveLength(overrides);
    }
    expect(pages[1]).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(pages[1]).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(pages[0]).toContain(long);
    expect([pages[0]!, pages[1]!].every((page) => page.includes('\u202E'))).toBe(true);
    expect(pages[1]).toContain('Notes: Gate closed. Access: Code 12.');
    expect(pages[1]).toContain('Access: javascript:alert(1) &lt;b&gt;closed.&lt;/b&gt;.');
  });
});

describe('add-on refusals in people’s words', () => {
  it('names the add-on and its field, never the path', async () => {
    const s = await signedIn();
    const page = await pageOf(s, '/dashboard/settings/add-ons');
    const form: Record<string, string> = { rows: /name="rows" value="(\d+)"/.exec(page)![1]!, ...inputs(page, /^addon_(name|label|price|minutes)_\d+$/) };
    form.addon_price_1 = '-5';
    const res = await post(s, '/dashboard/add-ons', form).expect(400);
    expect(res.text).not.toMatch(/add_ons\[/);
    expect(res.text).toMatch(/role="alert">Price of the second add-on /);
    expect(res.text).toMatch(/name="addon_price_1"[^>]*value="-5"[^>]*aria-invalid="true"/);
  });
});
