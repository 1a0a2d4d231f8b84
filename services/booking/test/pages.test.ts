// The customer's pages on the book host (src/pages.ts) and both front doors and API references.
import ICAL from 'ical.js';
import request from 'supertest';
import { DEFAULT_PRICE_LIST } from '@frontdesk/domain';
import { asPublic, bothHostsPerFile, newCleaner, booking, MONDAY_7AM } from '@frontdesk/dev-env/both-hosts';
import { agentBrowsing, bookOnThePage } from '@frontdesk/dev-env/booking-page';

const h = bothHostsPerFile();

const book = (cleaner: string, form: Record<string, string>) => h.book.post(`/book/${cleaner}`).type('form').send(form);
const contact = { customer_name: 'Rosa Diaz', customer_phone: '(212) 555-0177', address: '9 Elm St', zip: '10001' };
/** Books on the page as a browser does: the time held, the details sent (303), and the confirmation it leads to shows the booking. */
async function bookAndSee(cleaner: string, pick: Record<string, string>) {
  const browser = request.agent(h.bookApp);
  const posted = await bookOnThePage(agentBrowsing(browser), cleaner, { pick, details: contact });
  expect(posted.status).toBe(303);
  expect(posted.headers.location).toMatch(new RegExp(`^/book/${cleaner}/booked/[A-Za-z0-9_-]+$`));
  return browser.get(posted.headers.location as string).expect(200);
}
const tokenOf = (html: string) => /\/manage\/([A-Za-z0-9_-]{43})/.exec(html)![1]!;

describe('front doors and API references', () => {
  it.each(['pro', 'book'] as const)('the %s host says what it is at / and renders its own /openapi.json at /docs', async (host) => {
    const front = await h[host].get('/').expect(200);
    expect(front.headers['content-type']).toMatch(/text\/html/);
    expect(front.text).toMatch(/href="\/docs"/);
    expect(front.text).toMatch(/\/mcp/);
    const docs = await h[host].get('/docs').expect(200);
    const doc = (await h[host].get('/openapi.json').expect(200)).body as { paths: Record<string, unknown> };
    for (const path of Object.keys(doc.paths)) expect(docs.text).toContain(`id="${path.replace('/api/v1/', '')}"`);
    expect(docs.text).not.toMatch(/<script|https?:\/\/(?!pro\.test|book\.test)[a-z]/);
    expect(docs.headers['content-security-policy']).toMatch(/default-src 'none'/);
  });
});

describe('the search page', () => {
  it('names the cleaners of the ZIP that lack an extra asked for, and refuses one nobody there offers with the search form again', async () => {
    const zip = '30777';
    await newCleaner(h, { name: 'Has Extras', service_zips: [zip] });
    await newCleaner(h, { name: 'No Extras', service_zips: [zip], price_list: { ...DEFAULT_PRICE_LIST, add_ons: {} } });
    const found = await h.book.get('/find').query({ zip, bedrooms: 2, bathrooms: 1, add_ons: 'fridge' }).expect(200);
    expect(found.text).toMatch(/Has Extras: \$160\.00/);
    expect(found.text).toContain('Also serving this ZIP, but not offering everything you asked for: No Extras.');
    const refused = await h.book.get('/find').query({ zip, bedrooms: 2, bathrooms: 1, add_ons: 'NaN' }).expect(400);
    expect(refused.text).toContain(`No cleaner serving ZIP ${zip} offers the add-on &quot;nan&quot;`);
    expect(refused.text).toMatch(/<form method="get" action="\/find">/);
  });
});

describe('the booking page', () => {
  it('prices the job, lists open times and books, and the booking reaches the pro as made by the booking page, with the fee', async () => {
    const c = await newCleaner(h);
    const start = await h.book.get(`/book/${c.pro.id}`).expect(200);
    expect(start.text).toMatch(new RegExp(`<h1>Book ${c.pro.name}</h1>[\\s\\S]*Serves ZIP 10001`));
    expect(start.text).toMatch(/name="bedrooms"[^>]*>\s*<option value="0"\s*>Studio<\/option>[\s\S]*?<option value="2"\s+selected>/);
    const priced = await h.book.get(`/book/${c.pro.id}`).query({ bedrooms: '2', bathrooms: '1', add_ons: 'oven' }).expect(200);
    expect(priced.text).toMatch(/Your price: \$160\.00[\s\S]*Inside the oven/);
    const first = /name="start" value="([^"]+)"/.exec(priced.text)![1]!;
    expect(first).toBe('2026-11-24T08:00:00-05:00');

    const done = await bookAndSee(c.pro.id, { bedrooms: '2', bathrooms: '1', add_ons: 'oven', start: first });
    expect(done.text).toMatch(/You are booked[\s\S]*Tue, Nov 24, 8:00 AM EST[\s\S]*\$160\.00/);
    const token = tokenOf(done.text);
    const schedule = (await h.pro.get('/api/v1/schedule').set(c.auth).expect(200)).body;
    expect(schedule.jobs[0]).toMatchObject({ channel: 'book', client_name: 'the booking page', total: 160, fee: 5, customer: { name: 'Rosa Diaz' } });
    expect(schedule.notifications[0].message).toMatch(/^New booking from your booking page: Rosa Diaz/);
    const feed = (await h.pro.get('/api/v1/updates').set(c.auth).expect(200)).body;
    expect(feed.events.find((e: { kind: string }) => e.kind === 'booking.created')).toMatchObject({ channel: 'book', client_name: 'the booking page' });
    const status = await h.book.get('/api/v1/booking_status').set(asPublic).query({ manage_token: token }).expect(200);
    expect(status.body.manage_url).toBe(`http://book.test/manage/${token}`);
  });

  it('refuses to hold a time taken meanwhile, on the page, with fresh times and what was typed kept (a form from before holds first)', async () => {
    const c = await newCleaner(h);
    const priced = await h.book.get(`/book/${c.pro.id}`).query({ bedrooms: '2', bathrooms: '1' }).expect(200);
    const first = /name="start" value="([^"]+)"/.exec(priced.text)![1]!;
    await h.book
      .post('/api/v1/book_cleaning')
      .set(asPublic)
      .send(booking(c.pro.id, { start: first }))
      .expect(200);
    // A form without a hold (a page opened before holds) books nothing: it holds its time first.
    const refused = await book(c.pro.id, { bedrooms: '2', bathrooms: '1', expected_total: '125', start: first, ...contact }).expect(400);
    expect(refused.headers['content-type']).toMatch(/text\/html/);
    expect(refused.text).toMatch(/role="alert">[^<]*(taken|was just booked)/i);
    expect(refused.text).not.toContain(`value="${first}"`);
    expect(refused.text).toContain('value="Rosa Diaz"');
    expect(refused.text).not.toContain('Book this cleaning');
  });

  it('shows bad input and an unknown cleaner in plain words, never JSON', async () => {
    const c = await newCleaner(h);
    const bad = await bookOnThePage(agentBrowsing(request.agent(h.bookApp)), c.pro.id, {
      pick: { bedrooms: '2', bathrooms: '1', start: '2026-11-24T08:00:00-05:00' },
      details: { customer_name: 'Rosa', address: '9 Elm St', zip: '10001' },
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/role="alert">Give a phone number or an email so the cleaner can reach you/);
    expect(bad.text).not.toMatch(/>[^<]*(customer_phone|X-User)/);
    expect(bad.text).toMatch(/id="f-customer_phone"[^>]*aria-invalid="true"/);
    const none = await h.book.get('/book/pro_nobody').expect(404);
    expect(none.text).toMatch(/There is no cleaner at this address/);
    const lost = await h.book.get(`/manage/${'x'.repeat(43)}`).expect(404);
    expect(lost.text).toMatch(/No booking matches this link/);
  });
});

describe('the manage page', () => {
  it('shows the booking, offers its .ics, and cancels after confirming, warning within 24 hours', async () => {
    const c = await newCleaner(h);
    const done = await bookAndSee(c.pro.id, { bedrooms: '2', bathrooms: '1', start: '2026-11-24T08:00:00-05:00' });
    const token = tokenOf(done.text);
    const page = await h.book.get(`/manage/${token}`).expect(200);
    expect(page.text).toMatch(/This cleaning is booked\.<\/strong>[\s\S]*Cancel this cleaning/);
    // The row says "Total" once: "Total $120.00", never "Total $120.00 in total".
    expect(page.text).toMatch(/<th scope="row">Total<\/th>\s*<td><strong>\$\d+\.\d\d<\/strong><\/td>/);

    const ics = await h.book.get(`/manage/${token}/booking.ics`).expect(200);
    expect(ics.headers['content-type']).toMatch(/^text\/calendar/);
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics.text)).getFirstSubcomponent('vevent')!);
    ICAL.TimezoneService.register(new ICAL.Component(ICAL.parse(ics.text)).getFirstSubcomponent('vtimezone')!);
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-11-24T13:00:00.000Z');
    expect(event.location).toBe('9 Elm St, 10001');

    h.clock.now = new Date(MONDAY_7AM.getTime() + 10 * 3_600_000); // 15 hours before the start
    // A form without its confirmation goes to the confirmation page; the page says when the cleaner may charge.
    expect((await h.book.post(`/manage/${token}/cancel`).type('form').send({}).expect(303)).headers.location).toBe(`/manage/${token}/cancel`);
    const ask = await h.book.get(`/manage/${token}/cancel`).expect(200);
    expect(ask.text).toMatch(/starts within 24 hours: it still cancels, but .* may charge/);
    const yes = await h.book.post(`/manage/${token}/cancel`).type('form').send({ confirm: 'yes' }).expect(303);
    const cancelled = await h.book.get(yes.headers.location as string).expect(200);
    expect(cancelled.text).toMatch(/This cleaning is cancelled\.<\/strong>/);
    expect(cancelled.text).not.toMatch(/Cancel this cleaning/);
    const schedule = (await h.pro.get('/api/v1/schedule').set(c.auth).expect(200)).body;
    expect(schedule.jobs).toEqual([]);
    expect(schedule.notifications.map((n: { kind: string }) => n.kind)).toContain('booking.cancelled');
  });
});

describe('moving a booking on the manage page', () => {
  it('lists the open times for the same job and moves it, keeping the price', async () => {
    const c = await newCleaner(h);
    const done = await bookAndSee(c.pro.id, { bedrooms: '2', bathrooms: '1', start: '2026-11-24T08:00:00-05:00' });
    const token = tokenOf(done.text);
    expect((await h.book.get(`/manage/${token}`).expect(200)).text).toContain(`href="/manage/${token}/move"`);
    const choose = await h.book.get(`/manage/${token}/move`).expect(200);
    expect(choose.text).toMatch(/Now: <strong>Tue, Nov 24, 8:00 AM EST<\/strong>/);
    expect(choose.text).toContain('value="2026-11-25T10:00:00-05:00"');
    const browser = request.agent(h.bookApp);
    const posted = await browser.post(`/manage/${token}/move`).type('form').send({ start: '2026-11-25T10:00:00-05:00' }).expect(303);
    const moved = await browser.get(posted.headers.location as string).expect(200);
    expect(moved.text).toMatch(/role="status">Moved .* from Tue, Nov 24, 8:00 AM EST to Wed, Nov 25, 10:00 AM EST, at the same price/);
    expect(moved.text).toMatch(/Wed, Nov 25, 10:00 AM EST<\/strong>[\s\S]*\$125\.00/);
    const refused = await h.book.post(`/manage/${token}/move`).type('form').send({ start: '2026-11-29T10:00:00-05:00' }).expect(400);
    expect(refused.text).toMatch(/role="alert">[^<]*closed on Sundays/);
  });
});
