// log_lead, follow_ups_due, update_lead and flag_bad_lead (src/operations/leads.ts). A credit request
// never states what our own records contradict.
import { findContactDetails } from '@frontdesk/domain';
import { proDeskHarnessPerFile, newPro, validBooking, MONDAY_7AM } from '@frontdesk/dev-env/pro-desk';

const h = proDeskHarnessPerFile();

const HOUR = 3_600_000;
const lead = (auth: Record<string, string>, body: Record<string, unknown>) => h.api.post('/api/v1/log_lead').set(auth).send(body);
const storedLead = (id: string) => h.t.db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** A platform draft must carry no contact detail and no customer name. */
function expectPlatformSafe(draft: string, customerName: string) {
  expect(findContactDetails(draft)).toEqual([]);
  expect(draft).not.toContain(customerName);
  expect(draft).not.toMatch(/https?:|www\.|@|book\.test/);
}

describe('log_lead', () => {
  it('never stores a platform customer name or contact, and keeps every contact detail out of the draft', async () => {
    // Even a business named after its website must not leak it into a platform reply.
    const pro = await newPro(h, { name: 'SparkleMaids.com (call 212-555-0188)' });
    const res = await lead(pro.auth, {
      source: 'marketplace_2',
      lead_ref: 'TT-9912',
      customer_first_name: 'Zelda',
      contact: 'zelda@example.com, 917-555-0123',
      zip: '10001',
      lead_cost: 24.5,
      bedrooms: 3,
      bathrooms: 2,
    }).expect(200);
    expect(res.body.dropped_fields).toEqual(['customer_first_name', 'contact']);
    expect(res.body.notices[0]).toMatch(/customer_first_name and contact were not stored/);
    expect(res.body.lead).toMatchObject({ customer_first_name: null, contact: null, platform: true, lead_cost: 24.5, status: 'quoted' });
    expect(res.body.quote).toMatchObject({ total: 170, firm: true });
    expect(res.body.open_times.length).toBeGreaterThan(0);
    expect(res.body.reply_channel).toMatch(/inside the marketplace/);
    expectPlatformSafe(res.body.draft, 'Zelda');
    expect(res.body.draft).toMatch(/\$170\.00/);
    expect(res.body.draft).toMatch(/We have openings on Tue, Nov 24 at 8:00 AM; Wed, Nov 25 at 8:00 AM; or Thu, Nov 26 at 8:00 AM\./);
    const row = await storedLead(res.body.lead_id);
    expect(row.customer_first_name).toBeNull();
    expect(row.contact).toBeNull();
    expect(JSON.stringify(row)).not.toMatch(/Zelda|zelda@|917-555/);
  });

  it('greets a direct lead by name and carries the booking page link', async () => {
    const pro = await newPro(h);
    const res = await lead(pro.auth, {
      source: 'website',
      customer_first_name: 'Ana',
      contact: 'ana@example.com',
      bedrooms: 2,
      bathrooms: 1,
      zip: '10001',
    }).expect(200);
    expect(res.body.draft).toMatch(/^Hi Ana, thanks for reaching out/);
    expect(res.body.draft).toContain(`http://book.test/book/${pro.pro.id}`);
    expect(res.body.dropped_fields).toEqual([]);
    const row = await storedLead(res.body.lead_id);
    expect(row).toMatchObject({ customer_first_name: 'Ana', contact: 'ana@example.com' });
  });

  it('stores a lead without bedrooms and bathrooms, with no quote and a draft that asks for them', async () => {
    const pro = await newPro(h);
    const res = await lead(pro.auth, { source: 'marketplace_1', zip: '10001' }).expect(200);
    expect(res.body.quote).toBeNull();
    expect(res.body.open_times).toEqual([]);
    expect(res.body.draft).toMatch(/how many bedrooms and how many bathrooms/);
    expect((await storedLead(res.body.lead_id)).quote_total_cents).toBeNull();
  });

  it('stores an out-of-area paid platform lead, says so, and names the bad-lead reason', async () => {
    const pro = await newPro(h);
    const res = await lead(pro.auth, { source: 'marketplace_3', zip: '94105', lead_cost: 30, bedrooms: 2, bathrooms: 1 }).expect(200);
    expect(res.body.notices.join(' ')).toMatch(/ZIP 94105 is outside the service area \(10001\)/);
    expect(res.body.possible_bad_lead_reasons).toEqual(['out_of_area']);
    expect(res.body.bad_lead_hint).toMatch(/flag_bad_lead/);
    expect(res.body.draft).toMatch(/we don't serve ZIP 94105/);
    expect(res.body.open_times).toEqual([]);
    expectPlatformSafe(res.body.draft, 'nobody');
  });

  it('stores a lead for what the pro does not offer, saying what could not be priced', async () => {
    const pro = await newPro(h, {
      price_list: { ...(await import('@frontdesk/domain')).DEFAULT_PRICE_LIST, clean_types: { standard: { price_pct: 100, hours_pct: 100 } } },
    });
    const addOn = await lead(pro.auth, { source: 'referral', bedrooms: 2, bathrooms: 1, add_ons: ['garage', 'oven'] }).expect(200);
    expect(addOn.body.quote).toMatchObject({ firm: false, unpriced: ['add-on "garage"'] });
    expect(addOn.body.notices.join(' ')).toMatch(/Not priced \(not offered\): garage/);
    expect(addOn.body.draft).toMatch(/We don't offer garage/);
    const type = await lead(pro.auth, { source: 'marketplace_4', lead_cost: 15, bedrooms: 2, bathrooms: 1, clean_type: 'move_out' }).expect(200);
    expect(type.body.quote).toBeNull();
    expect(type.body.possible_bad_lead_reasons).toEqual(['service_not_offered']);
    expect(type.body.draft).toMatch(/We don't offer a move-out \/ move-in clean, but we do offer: standard clean/);
  });

  it('recognises the same platform lead_ref logged twice as a possible duplicate', async () => {
    const pro = await newPro(h);
    await lead(pro.auth, { source: 'marketplace_5', lead_ref: 'R-1', lead_cost: 10 }).expect(200);
    const again = await lead(pro.auth, { source: 'marketplace_5', lead_ref: 'R-1', lead_cost: 10 }).expect(200);
    expect(again.body.possible_bad_lead_reasons).toEqual(['duplicate']);
  });

  it.each([
    [{}, /source is required/],
    [{ source: 'craigslist' }, /source must be one of: marketplace_1/],
    [{ source: 'website', lead_ref: 'r'.repeat(101) }, /lead_ref must be at most 100 characters long/],
    [{ source: 'website', customer_first_name: 'n'.repeat(51) }, /customer_first_name must be at most 50 characters long/],
    [{ source: 'website', contact: 'c'.repeat(201) }, /contact must be at most 200 characters long/],
    [{ source: 'website', zip: '1000' }, /zip must be exactly 5 digits/],
    [{ source: 'website', lead_cost: -1 }, /lead_cost must be at least 0/],
    [{ source: 'website', lead_cost: 1000.01 }, /lead_cost must be at most 1000/],
    [{ source: 'website', bedrooms: 11 }, /bedrooms must be at most 10/],
    [{ source: 'website', bathrooms: 1.3 }, /bathrooms must be a whole or half number/],
  ])('refuses %j and stores nothing', async (body, message) => {
    const pro = await newPro(h);
    const res = await lead(pro.auth, body).expect(400);
    expect(res.body.error).toMatch(message);
    expect(await h.t.db.selectFrom('leads').select('id').where('pro_id', '=', pro.pro.id).execute()).toEqual([]);
  });
});

describe('follow-ups', () => {
  const due = async (auth: Record<string, string>) => (await h.api.get('/api/v1/follow_ups_due').set(auth).expect(200)).body;

  it('come due 1 day after the quote, then 2 days after the first follow-up, then never', async () => {
    const pro = await newPro(h);
    const { body } = await lead(pro.auth, { source: 'marketplace_1', lead_ref: 'F-1', customer_first_name: 'Zed', bedrooms: 2, bathrooms: 1 }).expect(200);
    const id = body.lead_id;
    const t0 = MONDAY_7AM.getTime();

    h.clock.now = new Date(t0 + 23 * HOUR);
    expect((await due(pro.auth)).follow_ups).toEqual([]);

    h.clock.now = new Date(t0 + 24 * HOUR);
    const first = await due(pro.auth);
    expect(first.follow_ups).toHaveLength(1);
    expect(first.follow_ups[0]).toMatchObject({ follow_up_number: 1, lead: { lead_id: id } });
    expectPlatformSafe(first.follow_ups[0].draft, 'Zed');
    expect(first.follow_ups[0].draft).toMatch(/just following up.*\$125\.00/);

    const t1 = t0 + 30 * HOUR;
    h.clock.now = new Date(t1);
    const sent = await h.api.post('/api/v1/update_lead').set(pro.auth).send({ lead_id: id, contacted: true }).expect(200);
    expect(sent.body).toMatchObject({ contacted: true, follow_ups_sent: 1 });
    expect(sent.body.message).toMatch(/Follow-up 1 recorded as sent\. Next follow-up due/);
    expect((await due(pro.auth)).follow_ups).toEqual([]);

    h.clock.now = new Date(t1 + 47 * HOUR);
    expect((await due(pro.auth)).follow_ups).toEqual([]);
    h.clock.now = new Date(t1 + 48 * HOUR);
    const second = await due(pro.auth);
    expect(second.follow_ups.map((f: { follow_up_number: number }) => f.follow_up_number)).toEqual([2]);
    expectPlatformSafe(second.follow_ups[0].draft, 'Zed');

    await h.api.post('/api/v1/update_lead').set(pro.auth).send({ lead_id: id, contacted: true }).expect(200);
    h.clock.now = new Date(t1 + 60 * 24 * HOUR);
    expect((await due(pro.auth)).follow_ups).toEqual([]);
  });

  it('are due only while the lead is quoted', async () => {
    const pro = await newPro(h);
    const { body } = await lead(pro.auth, { source: 'website', customer_first_name: 'Ana', bedrooms: 1, bathrooms: 1 }).expect(200);
    h.clock.now = new Date(MONDAY_7AM.getTime() + 25 * HOUR);
    const direct = await due(pro.auth);
    expect(direct.follow_ups[0].draft).toMatch(/^Hi Ana, just following up/);
    expect(direct.follow_ups[0].draft).toContain('http://book.test/book/');
    await h.api.post('/api/v1/update_lead').set(pro.auth).send({ lead_id: body.lead_id, status: 'lost', notes: 'Went with a friend' }).expect(200);
    expect((await due(pro.auth)).follow_ups).toEqual([]);
    const back = await h.api.post('/api/v1/update_lead').set(pro.auth).send({ lead_id: body.lead_id, status: 'quoted' }).expect(200);
    expect(back.body).toMatchObject({ status: 'quoted', notes: 'Went with a friend' });
    expect((await due(pro.auth)).follow_ups).toHaveLength(1);
  });
});

describe('update_lead', () => {
  it.each([
    [{ lead_id: 'lead_x' }, 400, /Give at least one of status or contacted or notes/],
    [{ lead_id: 'lead_nope', status: 'lost' }, 404, /No lead with id lead_nope/],
    [{ lead_id: 'lead_x', status: 'won' }, 400, /status must be one of: quoted, booked, lost/],
    [{ lead_id: 'lead_x', notes: 'n'.repeat(501) }, 400, /notes must be at most 500 characters long/],
    [{ lead_id: 'lead_x', contacted: 'yes' }, 400, /contacted must be true or false/],
    [{ status: 'lost' }, 400, /lead_id is required/],
  ])('refuses %j', async (body, status, message) => {
    const pro = await newPro(h);
    const res = await h.api.post('/api/v1/update_lead').set(pro.auth).send(body).expect(status);
    expect(res.body.error).toMatch(message);
  });

  it("never touches another pro's lead", async () => {
    const a = await newPro(h);
    const b = await newPro(h);
    const { body } = await lead(a.auth, { source: 'website', bedrooms: 1, bathrooms: 1 }).expect(200);
    await h.api.post('/api/v1/update_lead').set(b.auth).send({ lead_id: body.lead_id, status: 'lost' }).expect(404);
    expect((await storedLead(body.lead_id)).status).toBe('quoted');
  });
});

describe('flag_bad_lead', () => {
  it('prepares a paste-ready credit request for a paid lead, and flagging again replaces it', async () => {
    const pro = await newPro(h);
    const { body } = await lead(pro.auth, { source: 'marketplace_2', lead_ref: 'TT-77', zip: '94105', lead_cost: 22, bedrooms: 2, bathrooms: 1 }).expect(200);
    const res = await h.api
      .post('/api/v1/flag_bad_lead')
      .set(pro.auth)
      .send({ lead_id: body.lead_id, reason: 'out_of_area', evidence: ['2026-11-23: customer confirmed the home is in San Francisco'] })
      .expect(200);
    expect(res.body).toMatchObject({
      platform: 'marketplace_2',
      lead_ref: 'TT-77',
      lead_date: '2026-11-23',
      amount: 22,
      reason: 'out_of_area',
      reason_text: 'The customer is outside our service area.',
      submitted: false,
    });
    expect(res.body.evidence).toEqual([
      '2026-11-23: lead received through marketplace_2 (TT-77), charged $22.00.',
      '2026-11-23: the request is for ZIP 94105; we serve 10001.',
      '2026-11-23: customer confirmed the home is in San Francisco',
    ]);
    expect(res.body.request_text).toMatch(
      /^Lead credit request\nPlatform: marketplace_2\nLead: TT-77, received 2026-11-23\nAmount charged: \$22\.00\nReason: /,
    );
    expect(res.body.message).toMatch(/not submitted/);

    await h.api.post('/api/v1/flag_bad_lead').set(pro.auth).send({ lead_id: body.lead_id, reason: 'duplicate' }).expect(200);
    const row = await storedLead(body.lead_id);
    expect(row).toMatchObject({ flag_reason: 'duplicate', flag_evidence: [] });
  });

  it('refuses an unpaid lead and changes nothing', async () => {
    const pro = await newPro(h);
    const { body } = await lead(pro.auth, { source: 'marketplace_1', bedrooms: 1, bathrooms: 1 }).expect(200);
    const res = await h.api.post('/api/v1/flag_bad_lead').set(pro.auth).send({ lead_id: body.lead_id, reason: 'no_response' }).expect(400);
    expect(res.body.error).toMatch(/cost nothing .* only paid leads can be flagged/);
    expect((await storedLead(body.lead_id)).flag_reason).toBeNull();
  });

  it.each([
    [{ reason: 'rude' }, /reason must be one of: out_of_area, duplicate/],
    [{ reason: 'duplicate', evidence: Array.from({ length: 11 }, () => 'x') }, /evidence may have at most 10 items/],
    [{ reason: 'duplicate', evidence: ['e'.repeat(301)] }, /evidence\[0\] must be at most 300 characters long/],
    [{ reason: 'duplicate', evidence: 'one line' }, /evidence must be a list/],
  ])('refuses %j', async (extra, message) => {
    const pro = await newPro(h);
    const { body } = await lead(pro.auth, { source: 'marketplace_1', lead_cost: 5 }).expect(200);
    const res = await h.api
      .post('/api/v1/flag_bad_lead')
      .set(pro.auth)
      .send({ lead_id: body.lead_id, ...extra })
      .expect(400);
    expect(res.body.error).toMatch(message);
    expect((await storedLead(body.lead_id)).flag_reason).toBeNull();
  });

  it('answers 404 for an unknown lead', async () => {
    const pro = await newPro(h);
    await h.api.post('/api/v1/flag_bad_lead').set(pro.auth).send({ lead_id: 'lead_none', reason: 'duplicate' }).expect(404);
  });
});

describe('flag_bad_lead checks the reason against our records', () => {
  const paidLead = (over: Record<string, unknown> = {}) => ({
    source: 'marketplace_2',
    lead_ref: 'R-1',
    lead_cost: 18,
    bedrooms: 2,
    bathrooms: 1,
    zip: '10001',
    ...over,
  });

  it('refuses "no response" for a lead that was booked, and prepares nothing', async () => {
    const { pro, auth } = await newPro(h);
    const lead = await h.api.post('/api/v1/log_lead').set(auth).send(paidLead()).expect(200);
    await h.api
      .post('/api/v1/book_job')
      .set(auth)
      .send(validBooking({ lead_id: lead.body.lead_id }))
      .expect(200);
    const res = await h.api.post('/api/v1/flag_bad_lead').set(auth).send({ lead_id: lead.body.lead_id, reason: 'no_response' }).expect(400);
    expect(res.body.error).toMatch(/^Not flagged: Our records show this lead was booked/);
    const row = await h.t.db.selectFrom('leads').select(['flag_reason']).where('pro_id', '=', pro.id).executeTakeFirstOrThrow();
    expect(row.flag_reason).toBeNull();
  });

  it('refuses "out of area" for a ZIP the business serves, and accepts it for one it does not', async () => {
    const { auth } = await newPro(h);
    const served = await h.api.post('/api/v1/log_lead').set(auth).send(paidLead()).expect(200);
    const refused = await h.api.post('/api/v1/flag_bad_lead').set(auth).send({ lead_id: served.body.lead_id, reason: 'out_of_area' }).expect(400);
    expect(refused.body.error).toMatch(/ZIP 10001 is in this business's service area/);
    const far = await h.api
      .post('/api/v1/log_lead')
      .set(auth)
      .send(paidLead({ zip: '94110', lead_ref: 'R-2' }))
      .expect(200);
    const flagged = await h.api.post('/api/v1/flag_bad_lead').set(auth).send({ lead_id: far.body.lead_id, reason: 'out_of_area' }).expect(200);
    expect(flagged.body.request_text).toMatch(/outside our service area/);
  });

  it('refuses "service not offered" when the clean asked for is offered', async () => {
    const { auth } = await newPro(h);
    const lead = await h.api
      .post('/api/v1/log_lead')
      .set(auth)
      .send(paidLead({ clean_type: 'deep', add_ons: ['oven'] }))
      .expect(200);
    const res = await h.api.post('/api/v1/flag_bad_lead').set(auth).send({ lead_id: lead.body.lead_id, reason: 'service_not_offered' }).expect(400);
    expect(res.body.error).toMatch(/clean type and add-ons this lead asked for are offered/);
    const odd = await h.api
      .post('/api/v1/log_lead')
      .set(auth)
      .send(paidLead({ add_ons: ['pool'], lead_ref: 'R-3' }))
      .expect(200);
    await h.api.post('/api/v1/flag_bad_lead').set(auth).send({ lead_id: odd.body.lead_id, reason: 'service_not_offered' }).expect(200);
  });
});
