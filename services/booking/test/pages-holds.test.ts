// The booking page holds the picked time (issue 34): a hold per visit, shown until when, booked with, and gone in words.
import request from 'supertest';
import { bothHostsPerFile, newCleaner } from '@frontdesk/dev-env/both-hosts';
import { hiddenOf, startsOn } from '@frontdesk/dev-env/booking-page';

const h = bothHostsPerFile();
const job = { bedrooms: '2', bathrooms: '1' };
const details = { customer_name: 'Rosa Diaz', customer_phone: '(212) 555-0177', address: '9 Elm St', zip: '10001' };

async function pick(browser: ReturnType<typeof request.agent>, cleaner: string, start: string, extra: Record<string, string> = {}) {
  const held = await browser
    .post(`/book/${cleaner}/hold`)
    .type('form')
    .send({ ...job, start, ...extra })
    .expect(303);
  expect(held.headers.location).toMatch(new RegExp(`^/book/${cleaner}/held/hold_[A-Za-z0-9_-]+`));
  return held.headers.location as string;
}

describe('the booking page holds the picked time', () => {
  it('holds a pick for this browser only, says until when in the business’s zone, books with it once, and a reload never holds again', async () => {
    const c = await newCleaner(h);
    const browser = request.agent(h.bookApp);
    const priced = await browser.get(`/book/${c.pro.id}`).query(job).expect(200);
    expect(priced.text).toContain('Hold this time');
    // Nothing books from the times: no details asked there, no booking without a hold.
    expect(priced.text).not.toMatch(/Book this cleaning|name="customer_name"/);
    const first = startsOn(priced.text)[0]!;
    const at = await pick(browser, c.pro.id, first);
    const page = await browser.get(at).expect(200);
    expect(page.text).toMatch(/id="held-until">Tue, Nov 24, 8:00 AM EST is held for you until \d{1,2}:\d{2} (AM|PM) (EST|EDT)?/);
    // The same pick again (a reload, the form sent twice) keeps the one hold.
    expect(await pick(browser, c.pro.id, first)).toBe(at);
    // Held: gone from everyone else's list (one crew), and useless to another browser.
    const other = request.agent(h.bookApp);
    expect(startsOn((await other.get(`/book/${c.pro.id}`).query(job).expect(200)).text)).not.toContain(first);
    const stranger = await other.get(at).expect(404);
    expect(stranger.text).toContain('not held for you');
    const form: Record<string, string> = { ...hiddenOf(page.text), ...details };
    expect(form.hold_id).toMatch(/^hold_/);
    const stolen = await other.post(`/book/${c.pro.id}`).type('form').send(form).expect(404);
    expect(stolen.text).not.toMatch(/hold_id|X-User/);
    // Booked with the hold; the same form sent again answers the same booking.
    const booked = await browser.post(`/book/${c.pro.id}`).type('form').send(form).expect(303);
    expect(booked.headers.location).toMatch(/\/booked\//);
    expect((await browser.get(booked.headers.location as string).expect(200)).text).toMatch(/You are booked[\s\S]*Tue, Nov 24, 8:00 AM EST/);
    await browser.post(`/book/${c.pro.id}`).type('form').send(form).expect(303);
    const schedule = (await h.pro.get('/api/v1/schedule').set(c.auth).expect(200)).body;
    expect(schedule.jobs).toHaveLength(1);
    expect(schedule.jobs[0]).toMatchObject({ client_name: 'the booking page', customer: { name: 'Rosa Diaz' } });
  });

  it('keeps what was typed through a refusal, and a held time let go says so in words with the nearest times to hold instead', async () => {
    const c = await newCleaner(h);
    const browser = request.agent(h.bookApp);
    const [first, second] = startsOn((await browser.get(`/book/${c.pro.id}`).query(job).expect(200)).text);
    const firstAt = await pick(browser, c.pro.id, first!);
    const form = hiddenOf((await browser.get(firstAt).expect(200)).text);
    // No way to reach the customer: the held time again, the reason by its field, what was typed kept.
    const refused = await browser
      .post(`/book/${c.pro.id}`)
      .type('form')
      .send({ ...form, customer_name: 'Rosa Diaz', address: '9 Elm St', zip: '10001' })
      .expect(400);
    expect(refused.text).toMatch(/role="alert">Give a phone number or an email/);
    expect(refused.text).toContain('is held for you until');
    expect(refused.text).toContain('value="9 Elm St"');
    // Another pick lets the first go: booking with the first is refused in words, nothing booked, the nearest times offered.
    await pick(browser, c.pro.id, second!);
    const gone = await browser
      .post(`/book/${c.pro.id}`)
      .type('form')
      .send({ ...form, ...details })
      .expect(400);
    expect(gone.text).toMatch(/role="alert">The time held for you, Tue, Nov 24, 8:00 AM EST, was let go: nothing was booked/);
    expect(gone.text).not.toMatch(/>[^<]*hold_[A-Za-z0-9]/);
    const nearest = startsOn(gone.text);
    expect(nearest.length).toBeGreaterThan(0);
    expect(gone.text).toContain('value="Rosa Diaz"');
    // Holding a nearest time carries what was typed on to the details step.
    const again = await pick(browser, c.pro.id, nearest[0]!, { customer_name: 'Rosa Diaz', address: '9 Elm St', zip: '10001' });
    const details2 = await browser.get(again).expect(200);
    expect(details2.text).toContain('value="Rosa Diaz"');
    expect((await h.pro.get('/api/v1/schedule').set(c.auth).expect(200)).body.jobs).toHaveLength(0);
  });

  it('"Pick another time" lets the hold go and keeps what was typed through the times, a change of the job, and the next hold', async () => {
    const c = await newCleaner(h);
    const browser = request.agent(h.bookApp);
    const [first] = startsOn((await browser.get(`/book/${c.pro.id}`).query(job).expect(200)).text);
    const form = hiddenOf((await browser.get(await pick(browser, c.pro.id, first!)).expect(200)).text);
    const back = await browser
      .post(`/book/${c.pro.id}/another-time`)
      .type('form')
      .send({ ...form, customer_name: 'Rosa Diaz', notes: 'Ring twice' })
      .expect(303);
    const where = back.headers.location as string;
    expect(where).toMatch(new RegExp(`^/book/${c.pro.id}\\?bedrooms=2&bathrooms=1.*&typed=[A-Za-z0-9_-]+$`));
    // Let go: the time is offered again, and the details ride along in the pick's form, never in an address.
    const times = await browser.get(where).expect(200);
    expect(startsOn(times.text)).toContain(first);
    expect(hiddenOf(times.text)).toMatchObject({ customer_name: 'Rosa Diaz', notes: 'Ring twice' });
    expect(times.text).not.toMatch(/href="[^"]*Rosa/);
    // Another size of home, asked for from the job form, keeps them too.
    const typed = hiddenOf(times.text).typed!;
    const bigger = await browser
      .get(`/book/${c.pro.id}`)
      .query({ ...job, bedrooms: '3', typed })
      .expect(200);
    expect(hiddenOf(bigger.text)).toMatchObject({ bedrooms: '3', customer_name: 'Rosa Diaz' });
    // Another browser following the same address sees none of it.
    expect((await request.agent(h.bookApp).get(where).expect(200)).text).not.toContain('Rosa Diaz');
    const again = await pick(browser, c.pro.id, startsOn(bigger.text)[0]!, { bedrooms: '3', customer_name: 'Rosa Diaz', notes: 'Ring twice' });
    const details = (await browser.get(again).expect(200)).text;
    expect(details).toContain('value="Rosa Diaz"');
    expect(details).toMatch(/Ring twice<\/textarea/);
  });
});
