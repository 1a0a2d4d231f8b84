import { proDeskHarnessPerFile, newPro, validBooking } from './harness';

// Refusals name the real reason and the nearest real alternatives; a credit request never
// states what our own records contradict.
const h = proDeskHarnessPerFile();

describe('book_job refusals', () => {
  it('says a Sunday is a closed day', async () => {
    const { auth } = await newPro(h);
    const res = await h.api
      .post('/api/v1/book_job')
      .set(auth)
      .send(validBooking({ start: '2026-11-29T10:00:00-05:00' }))
      .expect(400);
    expect(res.body.error).toMatch(/^Sun, Nov 29, 10:00 AM EST is outside working hours: this business is closed on Sundays\./);
    expect(res.body.error).not.toMatch(/within closed/);
  });

  it('offers the open times nearest to a start off the step, not the first ones of the day', async () => {
    const { auth } = await newPro(h);
    const res = await h.api
      .post('/api/v1/book_job')
      .set(auth)
      .send(validBooking({ start: '2026-11-24T10:10:00-05:00' }))
      .expect(400);
    expect(res.body.error).toMatch(/not one of the offered start times/);
    const near = /The nearest open times: (.*)\.$/.exec(res.body.error)![1]!.split('; ');
    expect(near).toContain('Tue, Nov 24, 10:00 AM EST');
    expect(near).toContain('Tue, Nov 24, 10:30 AM EST');
    expect(near.join(' ')).not.toMatch(/8:00 AM|8:30 AM/);
  });

  it('labels a start a year in the past with its year, and offers times from now', async () => {
    const { auth } = await newPro(h);
    const res = await h.api
      .post('/api/v1/book_job')
      .set(auth)
      .send(validBooking({ start: '2025-11-24T10:00:00-05:00' }))
      .expect(400);
    expect(res.body.error).toMatch(/^Mon, Nov 24, 2025, 10:00 AM EST is in the past\./);
    expect(res.body.error).toMatch(/The nearest open times: Tue, Nov 24, 8:00 AM EST; /);
    expect(res.body.error).not.toMatch(/2026/);
  });

  it('labels open times in another year than now with that year', async () => {
    const { auth } = await newPro(h);
    h.clock.now = new Date('2026-12-30T12:00:00Z');
    const res = await h.api.get('/api/v1/open_times?bedrooms=1&bathrooms=1&date=2027-01-04&days=1').set(auth).expect(200);
    expect(res.body.open_times[0].label).toBe('Mon, Jan 4, 2027, 8:00 AM EST');
    const thisYear = await h.api.get('/api/v1/open_times?bedrooms=1&bathrooms=1&date=2026-12-31&days=1').set(auth).expect(200);
    expect(thisYear.body.open_times[0].label).toBe('Thu, Dec 31, 8:00 AM EST');
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
