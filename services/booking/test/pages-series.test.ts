// The customer's pages for a repeating cleaning, and what every form does on a reload:
// through the real app and database, as a browser posts forms (an agent keeping cookies).
import request from 'supertest';
import { asPublic, bothHostsPerFile, booking, newCleaner } from '@frontdesk/dev-env/both-hosts';
import { agentBrowsing, bookOnThePage } from '@frontdesk/dev-env/booking-page';

const h = bothHostsPerFile();

/** A weekly series booked through the API, and its manage token. */
async function weekly(cleaner: string) {
  const made = await h.book
    .post('/api/v1/book_cleaning')
    .set(asPublic)
    .send(booking(cleaner, { frequency: 'weekly', notes: 'Ring twice\nThe cat hides' }))
    .expect(200);
  return made.body as { manage_token: string; series: { visits: { booking_id: string; start: string; label: string }[] } };
}

const status = async (token: string) =>
  (await h.book.get('/api/v1/booking_status').set(asPublic).query({ manage_token: token }).expect(200)).body as {
    series_visits: { booking_id: string; status: string; start: string }[];
  };
const booked = async (token: string) => (await status(token)).series_visits.filter((v) => v.status === 'booked');

describe('the manage page of a weekly series', () => {
  it('says it repeats, its price per visit, and lists every visit ahead with a way to move or cancel each', async () => {
    const c = await newCleaner(h);
    const { manage_token: token, series } = await weekly(c.pro.id);
    const page = await h.book.get(`/manage/${token}`).expect(200);
    expect(page.text).toMatch(/This cleaning repeats <strong>every week<\/strong>/);
    expect(page.text).toMatch(/\$\d+\.\d\d per visit, every week/);
    expect(page.text).not.toMatch(/in total|manage_token|series\.visits/);
    for (const v of series.visits) {
      expect(page.text).toContain(`href="/manage/${token}/cancel?visit=${v.booking_id}"`);
      expect(page.text).toContain(`href="/manage/${token}/move?visit=${v.booking_id}"`);
    }
    // Notes keep their lines, and a text written right to left (or with a direction override) stays inside its own element.
    expect(page.text).toContain('<bdi class="kept-lines">Ring twice\nThe cat hides</bdi>');
  });

  it('cancels one visit, then this and all later ones, each after a page saying which dates; a reload repeats nothing', async () => {
    const c = await newCleaner(h);
    const { manage_token: token, series } = await weekly(c.pro.id);
    const n = series.visits.length;
    const [, second, third] = series.visits;
    const ask = await h.book.get(`/manage/${token}/cancel`).query({ visit: second!.booking_id }).expect(200);
    const said = ask.text.replace(/\s+/g, ' ');
    expect(said).toContain(`Cancels the visit on <strong>${second!.label}</strong>. The other ${n - 2} booked visits after it stay booked.`);
    expect(said).toContain(`Cancels these ${n - 1} visits and ends the series`);
    expect(said).toMatch(/Cancelling is free until 24 hours before a visit starts/);

    const browser = request.agent(h.bookApp);
    const one = await browser.post(`/manage/${token}/cancel`).type('form').send({ confirm: 'yes', visit: second!.booking_id }).expect(303);
    expect(one.headers.location).toMatch(new RegExp(`^/manage/${token}\\?notice=[A-Za-z0-9_-]+$`));
    const after = await browser.get(one.headers.location as string).expect(200);
    expect(after.text).toMatch(/role="status">Cancelled .* free of charge/);
    expect(after.text).toContain(`${n - 1} visits are booked`);
    expect((await booked(token)).length).toBe(n - 1);
    // The reload (a GET) repeats nothing; another browser at the address sees the page without the notice.
    await browser.get(one.headers.location as string).expect(200);
    expect((await booked(token)).length).toBe(n - 1);
    expect((await h.book.get(one.headers.location as string).expect(200)).text).not.toMatch(/role="status"/);

    const rest = await browser.post(`/manage/${token}/cancel`).type('form').send({ confirm: 'yes', visit: third!.booking_id, scope: 'later' }).expect(303);
    const ended = await browser.get(rest.headers.location as string).expect(200);
    expect(ended.text).toMatch(new RegExp(`The ${n - 3} later visits are cancelled too; the series has ended`));
    expect((await booked(token)).map((v) => v.booking_id)).toEqual([series.visits[0]!.booking_id]);
  });

  it('after "this and all later visits" says what is still booked, then what ended, and no longer that the cleaning repeats', async () => {
    const c = await newCleaner(h);
    const { manage_token: token, series } = await weekly(c.pro.id);
    const [first, second, third] = series.visits;
    const browser = request.agent(h.bookApp);
    await browser.post(`/manage/${token}/cancel`).type('form').send({ confirm: 'yes', visit: second!.booking_id }).expect(303);
    const rest = await browser.post(`/manage/${token}/cancel`).type('form').send({ confirm: 'yes', visit: third!.booking_id, scope: 'later' }).expect(303);
    const page = (await browser.get(rest.headers.location as string).expect(200)).text;
    const text = page.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).not.toMatch(/repeats/);
    expect(text).not.toMatch(/The first visit/);
    const still = text.indexOf('Still booked');
    const ended = text.indexOf('Ended');
    expect(still).toBeGreaterThan(-1);
    expect(ended).toBeGreaterThan(still);
    // Still booked: the first visit alone, to move or cancel; ended: the series, and the visits cancelled.
    const booked = text.slice(still, ended);
    expect(booked).toMatch(/1 visit is still booked with Cleaner \w+, \$\d+\.\d\d per visit\./);
    expect(booked).toContain(first!.label);
    expect(booked).not.toContain(second!.label);
    expect(page).toContain(`href="/manage/${token}/move?visit=${first!.booking_id}"`);
    const gone = text.slice(ended);
    expect(gone).toMatch(/The series has ended: no more visits will be booked\./);
    for (const v of series.visits.slice(1)) expect(gone).toContain(`${v.label} cancelled`);
    expect(page).not.toContain(`/cancel?visit=${second!.booking_id}`);
  });

  it('moves one visit, or it and every later one keeping the rhythm; the move page picks nothing and keeps a refused pick', async () => {
    const c = await newCleaner(h);
    const { manage_token: token, series } = await weekly(c.pro.id);
    const [first, second] = series.visits;
    const choose = await h.book.get(`/manage/${token}/move`).query({ visit: second!.booking_id }).expect(200);
    expect(choose.text).toMatch(/<legend>\w{3}, \w{3} \d+<\/legend>/);
    expect(choose.text).not.toMatch(/\bchecked\b/);
    expect(choose.text).toContain(`<input type="hidden" name="visit" value="${second!.booking_id}" />`);
    expect(choose.text).toMatch(/Move this and the \d+ later visits: each moves by the same number of days/);

    const sunday = await h.book
      .post(`/manage/${token}/move`)
      .type('form')
      .send({ visit: second!.booking_id, start: '2026-11-29T10:00:00-05:00', scope: 'one' })
      .expect(400);
    expect(sunday.text).toMatch(/role="alert">[^<]*closed on Sundays/);
    expect(sunday.text).toContain('The time you picked is no longer open');

    const browser = request.agent(h.bookApp);
    const moved = await browser
      .post(`/manage/${token}/move`)
      .type('form')
      .send({ visit: second!.booking_id, start: '2026-12-02T11:00:00-05:00', scope: 'later' })
      .expect(303);
    expect((await browser.get(moved.headers.location as string).expect(200)).text).toMatch(/role="status">Moved .* later visits of the series moved with it/);
    const now = await booked(token);
    expect(now[0]).toMatchObject({ booking_id: first!.booking_id, start: first!.start });
    expect(now.slice(1).every((v) => new Date(v.start).getUTCDay() === 3 && new Date(v.start).getUTCHours() === 16)).toBe(true);
    expect(now.length).toBe(series.visits.length);
  });
});

describe('the confirmation after booking on the page', () => {
  it('shows the booking and its link again on a reload in the browser that booked, and a sentence in any other', async () => {
    const c = await newCleaner(h);
    const browser = request.agent(h.bookApp);
    const pick = { bedrooms: '2', bathrooms: '1', frequency: 'weekly', start: '2026-11-24T08:00:00-05:00' };
    const details = { customer_name: 'Rosa', customer_email: 'rosa@example.com', address: '9 Elm St', zip: '10001' };
    const posted = await bookOnThePage(agentBrowsing(browser), c.pro.id, { pick, details });
    expect(posted.status).toBe(303);
    const where = posted.headers.location as string;
    const shown = await browser.get(where).expect(200);
    const again = await browser.get(where).expect(200);
    const link = /id="manage-link" href="([^"]+)"/.exec(shown.text)![1];
    expect(/id="manage-link" href="([^"]+)"/.exec(again.text)![1]).toBe(link);
    expect(shown.text).toMatch(/This cleaning repeats every week: \d+ visits are booked/);
    // The row names it per visit once: "Each visit $X, every week".
    expect(shown.text).toMatch(/Each visit<\/th>\s*<td><strong>\$\d+\.\d\d<\/strong>, every week<\/td>/);
    expect(shown.text).not.toMatch(/manage_token|series\.visits|in total/);
    const token = link!.split('/').pop()!;
    expect((await booked(token)).length).toBeGreaterThan(1);
    const elsewhere = await h.book.get(where).expect(200);
    expect(elsewhere.text).toMatch(/shown only in the browser that made the booking/);
    expect(elsewhere.text).not.toContain(token);
  });
});

describe('the search and the host', () => {
  it('keeps the ZIP and asks for the rooms instead of refusing, and answers the browser icon with nothing', async () => {
    const found = await h.book.get('/find').query({ zip: '10001' }).expect(200);
    expect(found.text).toMatch(/Say how many bedrooms and bathrooms/);
    expect(found.text).toMatch(/name="zip"[^>]*value="10001"/);
    const bad = await h.book.get('/find').query({ zip: 'abc', bedrooms: '2', bathrooms: '1' }).expect(400);
    expect(bad.headers['content-type']).toMatch(/text\/html/);
    expect(bad.text).toMatch(/aria-invalid="true"/);
    await h.book.get('/favicon.ico').expect(204);
  });
});
