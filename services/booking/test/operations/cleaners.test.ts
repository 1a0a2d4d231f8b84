// find_cleaners and available_times (src/operations/cleaners.ts).
import { createBooking, recordCheck } from '@frontdesk/use-cases';
import { proBookingRequest } from '@frontdesk/use-cases/testing';
import { DEFAULT_PRICE_LIST, normalizeJob } from '@frontdesk/domain';
import { bothHostsPerFile, newCleaner, asPublic, MONDAY_7AM } from '@frontdesk/dev-env/both-hosts';

const h = bothHostsPerFile();

/** A ZIP of its own per test, so cleaners from other tests never show up. */
let zipSeq = 20000;
const freshZip = () => String((zipSeq += 1));

describe('find_cleaners', () => {
  it('lists cleaners serving the ZIP with their own firm totals, earliest open time first, then price, with dated checks', async () => {
    const zip = freshZip();
    const cheap = await newCleaner(h, { name: 'Cheap & Busy', service_zips: [zip], price_list: { ...DEFAULT_PRICE_LIST, base_cents: 4000 } });
    const dear = await newCleaner(h, { name: 'Dear & Free', service_zips: [zip], price_list: { ...DEFAULT_PRICE_LIST, base_cents: 9000 } });
    const same = await newCleaner(h, { name: 'Also Free', service_zips: [zip] });
    await newCleaner(h, { name: 'Elsewhere', service_zips: ['99999'] });
    await newCleaner(h, {
      name: 'No Deep',
      service_zips: [zip],
      price_list: { ...DEFAULT_PRICE_LIST, clean_types: { standard: { price_pct: 100, hours_pct: 100 } } },
    });
    // Cheap & Busy is booked all of Tuesday morning, so its first open time is later.
    const job = normalizeJob({ bedrooms: 2, bathrooms: 1, clean_type: 'deep' });
    await createBooking(
      h.t.db,
      proBookingRequest(cheap.pro.id, new Date('2026-11-24T13:00:00Z'), MONDAY_7AM, { job, customer: { name: 'X', phone: '5550100999', email: null }, zip }),
    );
    await recordCheck(h.t.db, { proId: dear.pro.id, kind: 'website_ownership', subject: 'dearfree.example', passed: true, checkedOn: '2026-11-20' });
    await recordCheck(h.t.db, {
      proId: dear.pro.id,
      kind: 'marketplace_profile',
      subject: 'marketplace_1',
      passed: true,
      rating: 4.7,
      reviews: 88,
      checkedOn: '2026-11-19',
    });

    const { body } = await h.book.get('/api/v1/find_cleaners').set(asPublic).query({ zip, bedrooms: 2, bathrooms: 1, clean_type: 'deep' }).expect(200);
    expect(body.cleaners.map((c: { name: string }) => c.name)).toEqual(['Also Free', 'Dear & Free', 'Cheap & Busy']);
    const totals = Object.fromEntries(body.cleaners.map((c: { name: string; total: number }) => [c.name, c.total]));
    expect(totals).toEqual({ 'Also Free': 187.5, 'Dear & Free': 232.5, 'Cheap & Busy': 157.5 });
    expect(body.cleaners[0].next_open_times[0].start).toBe('2026-11-24T08:00:00-05:00');
    expect(body.cleaners[2].next_open_times[0].start > '2026-11-24T10:00').toBe(true);
    expect(body.cleaners[1].checks).toEqual([
      expect.objectContaining({
        kind: 'marketplace_profile',
        checked_on: '2026-11-19',
        summary: 'On 2026-11-19 a profile on marketplace_1 was found, rated 4.7 of 5 from 88 reviews.',
      }),
      expect.objectContaining({
        kind: 'website_ownership',
        checked_on: '2026-11-20',
        summary: 'On 2026-11-20 the website dearfree.example appeared to belong to this business.',
      }),
    ]);
    expect(body.checks_note).toMatch(/Best-effort checks .* not a guarantee or an endorsement/);
    expect(body.cleaners.map((c: { cleaner_id: string }) => c.cleaner_id)).toEqual([same.pro.id, dear.pro.id, cheap.pro.id]);
  });

  it('shows a changed price list at once, though profiles are cached between searches', async () => {
    const zip = freshZip();
    const c = await newCleaner(h, { service_zips: [zip] });
    const find = async () => (await h.book.get('/api/v1/find_cleaners').set(asPublic).query({ zip, bedrooms: 2, bathrooms: 1 }).expect(200)).body;
    expect((await find()).cleaners[0].total).toBe(125);
    const before = await h.t.db.selectFrom('pros').select('config_version').where('id', '=', c.pro.id).executeTakeFirstOrThrow();
    // Bookings bump the event counter on the pro's row: that is not a profile change.
    await h.pro
      .post('/api/v1/book_job')
      .set(c.auth)
      .send({ bedrooms: 2, bathrooms: 1, start: '2026-11-24T09:00:00-05:00', customer_name: 'P', customer_phone: '5550100999', address: '1 Main St', zip });
    const afterBooking = await h.t.db.selectFrom('pros').select('config_version').where('id', '=', c.pro.id).executeTakeFirstOrThrow();
    expect(afterBooking.config_version).toBe(before.config_version);
    await h.t.db
      .updateTable('pros')
      .set({ price_list: JSON.stringify({ ...DEFAULT_PRICE_LIST, base_cents: 9000 }) })
      .where('id', '=', c.pro.id)
      .execute();
    expect((await find()).cleaners[0].total).toBe(155);
    await h.t.db
      .updateTable('pros')
      .set({ service_zips: ['10001'] })
      .where('id', '=', c.pro.id)
      .execute();
    expect((await find()).cleaners).toEqual([]);
  });

  it('keeps cached open times exact: a booking, time off and the passing of time all show at once', async () => {
    const zip = freshZip();
    const c = await newCleaner(h, { service_zips: [zip] });
    const first = async () =>
      (await h.book.get('/api/v1/find_cleaners').set(asPublic).query({ zip, bedrooms: 2, bathrooms: 1 }).expect(200)).body.cleaners[0].next_open_times[0].start;
    expect(await first()).toBe('2026-11-24T08:00:00-05:00');
    // Taken through the other host: the cache must not offer it again.
    await h.pro
      .post('/api/v1/book_job')
      .set(c.auth)
      .send({ bedrooms: 2, bathrooms: 1, start: '2026-11-24T08:00:00-05:00', customer_name: 'P', customer_phone: '5550100999', address: '1 Main St', zip })
      .expect(200);
    expect(await first()).toBe('2026-11-24T10:00:00-05:00'); // 08:00 + 75 min + 30 min buffer, on the half hour
    await h.t.db
      .insertInto('time_off')
      .values({ id: 'off_1', pro_id: c.pro.id, starts_at: new Date('2026-11-24T15:00:00Z'), ends_at: new Date('2026-11-25T00:00:00Z'), note: null })
      .execute();
    expect(await first()).toBe('2026-11-25T08:00:00-05:00');
    await h.t.db.deleteFrom('time_off').where('id', '=', 'off_1').execute();
    expect(await first()).toBe('2026-11-24T10:00:00-05:00');
    // Time passes: with 12 hours' notice, 10:00 on Tuesday is too soon at 22:30 on Monday.
    h.clock.now = new Date('2026-11-24T03:30:00Z');
    expect(await first()).toBe('2026-11-24T10:30:00-05:00');
  });

  it("answers with the business's own changes at once: prices, hours, time off and ZIPs set through the pro host", async () => {
    const zip = freshZip();
    const c = await newCleaner(h, { service_zips: [zip] });
    const find = async () => (await h.book.get('/api/v1/find_cleaners').set(asPublic).query({ zip, bedrooms: 2, bathrooms: 1 }).expect(200)).body;
    const times = async (date: string) =>
      (await h.book.get('/api/v1/available_times').set(asPublic).query({ cleaner_id: c.pro.id, bedrooms: 2, bathrooms: 1, date, days: 1 }).expect(200)).body;
    const change = (path: string, body: object) => h.pro.post(`/api/v1/${path}`).set(c.auth).send(body).expect(200);
    expect((await find()).cleaners[0]).toMatchObject({ total: 125 });
    expect((await times('2026-11-28')).open_times).not.toEqual([]);

    await change('update_business', { prices: { base: 90 }, working_hours: { saturday: [] } });
    expect((await find()).cleaners[0].total).toBe(155);
    const saturday = await times('2026-11-28');
    expect(saturday).toMatchObject({ total: 155, open_times: [] });

    const off = (await change('add_time_off', { start: '2026-11-24', end: '2026-11-24' })).body;
    expect((await find()).cleaners[0].next_open_times[0].start).toBe('2026-11-25T08:00:00-05:00');
    expect((await times('2026-11-24')).open_times).toEqual([]);
    await change('remove_time_off', { time_off_id: off.time_off_id });
    expect((await find()).cleaners[0].next_open_times[0].start).toBe('2026-11-24T08:00:00-05:00');

    await change('update_business', { service_zips: ['10001'] });
    expect((await find()).cleaners).toEqual([]);
  });

  it('says so when nobody serves the ZIP, and honours limit', async () => {
    const none = await h.book.get('/api/v1/find_cleaners').set(asPublic).query({ zip: freshZip(), bedrooms: 1, bathrooms: 1 }).expect(200);
    expect(none.body).toMatchObject({ count: 0, cleaners: [] });
    expect(none.body.message).toMatch(/No cleaner on this service serves ZIP/);
    const zip = freshZip();
    await newCleaner(h, { service_zips: [zip] });
    await newCleaner(h, { service_zips: [zip] });
    const one = await h.book.get('/api/v1/find_cleaners').set(asPublic).query({ zip, bedrooms: 1, bathrooms: 1, limit: 1 }).expect(200);
    expect(one.body.count).toBe(1);
  });

  it('judges add-ons as quote_job does: one that no cleaner of the ZIP offers is refused (NaN, -1, an emoji) on REST and MCP, and a cleaner lacking one is named in not_offered, not priced without it', async () => {
    const zip = freshZip();
    const full = await newCleaner(h, { name: 'Has Extras', service_zips: [zip] });
    const bare = await newCleaner(h, { name: 'No Extras', service_zips: [zip], price_list: { ...DEFAULT_PRICE_LIST, add_ons: {} } });
    const find = (addOns: string) => h.book.get('/api/v1/find_cleaners').set(asPublic).query({ zip, bedrooms: 2, bathrooms: 1, add_ons: addOns });
    for (const asked of ['NaN', '-1', '😀']) {
      const named = asked.toLowerCase();
      const refused = await find(asked).expect(400);
      expect(refused.body.error).toBe(
        `No cleaner serving ZIP ${zip} offers the add-on "${named}"; add-ons offered there: cabinets, fridge, laundry, oven, windows.`,
      );
      // The pro host refuses it for one business in the same words, said of that business.
      const quoted = await h.pro.get('/api/v1/quote_job').set(full.auth).query({ bedrooms: 2, bathrooms: 1, add_ons: asked }).expect(400);
      expect(quoted.body.error).toBe(`This business does not offer the add-on "${named}"; add-ons offered: cabinets, fridge, laundry, oven, windows.`);
      const viaMcp = await h.book
        .post('/mcp')
        .set(asPublic)
        .send({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'find_cleaners', arguments: { zip, bedrooms: 2, bathrooms: 1, add_ons: [asked] } },
        })
        .expect(200);
      expect(viaMcp.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: refused.body.error }] });
    }
    // Offered by one of the two: that one is priced with it, the other named with what it lacks.
    const { body } = await find('Fridge').expect(200);
    expect(body.cleaners.map((c: { cleaner_id: string }) => c.cleaner_id)).toEqual([full.pro.id]);
    expect(body.cleaners[0].price.line_items.map((l: { label: string }) => l.label)).toContain('Inside the fridge');
    expect(body.not_offered).toEqual([{ cleaner_id: bare.pro.id, name: 'No Extras', missing: ['add-on "fridge"'] }]);
    expect((await find('').expect(200)).body.not_offered).toEqual([]);
  });

  it.each([
    [{ zip: '1234', bedrooms: 1, bathrooms: 1 }, /zip must be exactly 5 digits/],
    [{ zip: '10001', bathrooms: 1 }, /bedrooms is required/],
    [{ zip: '10001', bedrooms: 1, bathrooms: 1, limit: 51 }, /limit must be at most 50/],
    [{ zip: '10001', bedrooms: 1, bathrooms: 1, days: 22 }, /days must be at most 21/],
  ])('refuses %j', async (query, message) => {
    const res = await h.book.get('/api/v1/find_cleaners').set(asPublic).query(query).expect(400);
    expect(res.body.error).toMatch(message);
  });
});

describe('available_times', () => {
  it("lists the same open times as the pro's own open_times", async () => {
    const c = await newCleaner(h);
    const q = { bedrooms: 3, bathrooms: 2, days: 3 };
    const customer = await h.book
      .get('/api/v1/available_times')
      .set(asPublic)
      .query({ cleaner_id: c.pro.id, ...q })
      .expect(200);
    const pro = await h.pro.get('/api/v1/open_times').set(c.auth).query(q).expect(200);
    expect(customer.body.open_times).toEqual(pro.body.open_times);
    expect(customer.body.total).toBe(170);
    await h.book
      .get('/api/v1/available_times')
      .set(asPublic)
      .query({ cleaner_id: 'pro_nobody', ...q })
      .expect(404);
  });
});
