// quote_job and open_times (src/operations/pricing.ts).
import { proDeskHarnessPerFile, newPro } from '@frontdesk/dev-env/pro-desk';
import { startsOf } from '@frontdesk/domain';

const h = proDeskHarnessPerFile();
/** One business shared by this file's tests of its own schedule. */
let auth: Record<string, string>;
beforeAll(async () => {
  ({ auth } = await newPro(h));
});

const get = (op: string, query: Record<string, string | number | boolean>) => h.api.get(`/api/v1/${op}`).set(auth).query(query);

describe('quote_job', () => {
  it('prices from the list with line items and estimated hours', async () => {
    const { body } = await get('quote_job', { bedrooms: 3, bathrooms: 2.5, add_ons: 'oven,fridge', pets: true }).expect(200);
    expect(body.total).toBe(60 + 60 + 62.5 + 35 + 35 + 15);
    expect(body.line_items.reduce((s: number, l: { amount: number }) => s + l.amount, 0)).toBeCloseTo(body.total, 2);
    expect(body.job.add_ons).toEqual(['oven', 'fridge']);
    expect(body.estimated_hours).toBeGreaterThan(0);
    expect(body.summary).toMatch(/^Standard clean, 3 bedrooms, 2.5 bathrooms: \$267.50/);
  });

  it('says whether a recurring first visit is discounted', async () => {
    const { body } = await get('quote_job', { bedrooms: 2, bathrooms: 1, frequency: 'weekly' }).expect(200);
    expect(body.recurring).toMatchObject({ frequency: 'weekly', discount_pct: 20, first_visit: 'discounted' });
  });

  it('refuses an add-on the business does not offer, listing the offered ones', async () => {
    const { body } = await get('quote_job', { bedrooms: 2, bathrooms: 1, add_ons: 'garage' }).expect(400);
    expect(body.error).toMatch(/does not offer the add-on "garage"; add-ons offered: cabinets, fridge, laundry, oven, windows/);
  });

  it.each([
    [{ bathrooms: 1 }, /bedrooms is required/],
    [{ bedrooms: 2 }, /bathrooms is required/],
    [{ bedrooms: -1, bathrooms: 1 }, /bedrooms must be at least 0/],
    [{ bedrooms: 11, bathrooms: 1 }, /bedrooms must be at most 10/],
    [{ bedrooms: 2.5, bathrooms: 1 }, /bedrooms must be a whole number/],
    [{ bedrooms: 'two', bathrooms: 1 }, /bedrooms must be a whole number/],
    [{ bedrooms: 2, bathrooms: 0.5 }, /bathrooms must be at least 1/],
    [{ bedrooms: 2, bathrooms: 10.5 }, /bathrooms must be at most 10/],
    [{ bedrooms: 2, bathrooms: 1.25 }, /bathrooms must be a whole or half number/],
    [{ bedrooms: 2, bathrooms: 1, sqft: 199 }, /sqft must be at least 200/],
    [{ bedrooms: 2, bathrooms: 1, sqft: 15001 }, /sqft must be at most 15000/],
    [{ bedrooms: 2, bathrooms: 1, clean_type: 'sparkly' }, /clean_type must be one of: standard, deep, move_out, turnover/],
    [{ bedrooms: 2, bathrooms: 1, frequency: 'daily' }, /frequency must be one of: once, weekly, biweekly, monthly/],
    [{ bedrooms: 2, bathrooms: 1, pets: 'maybe' }, /pets must be true or false/],
    [{ bedrooms: 2, bathrooms: 1, colour: 'blue' }, /colour is not a parameter of this operation/],
  ])('refuses %j with a sentence naming the field', async (query, message) => {
    const { body } = await get('quote_job', query as Record<string, string | number>).expect(400);
    expect(body.error).toMatch(message);
  });
});

describe('open_times', () => {
  it('lists 7 days by default from today in the pro zone, by day, each start with its local offset', async () => {
    const { body } = await get('open_times', { bedrooms: 2, bathrooms: 1 }).expect(200);
    expect(body.from).toBe('2026-11-23');
    expect(body.days).toBe(7);
    // Now is Monday 07:00; with 12 h notice the first start is Tuesday 08:00.
    expect(body.open_times[0].label).toBe('Tue, Nov 24');
    expect(body.open_times[0].starts.slice(0, 2)).toEqual(['2026-11-24T08:00:00-05:00', '2026-11-24T08:30:00-05:00']);
    // A start's end is the start plus the job's duration: 08:00 + 75 minutes.
    expect(body.job.duration_minutes).toBe(75);
    const dates = body.open_times.map((d: { starts: string[] }) => d.starts[0]!.slice(0, 10));
    expect(dates).toEqual(['2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28']);
    body.open_times.forEach((day: { starts: string[] }, i: number) => expect(day.starts.every((s) => s.startsWith(`${dates[i]}T`))).toBe(true));
    expect(body.count).toBe(startsOf(body.open_times).length);
  });

  it('honours date, days, start_after and finish_by', async () => {
    const { body } = await get('open_times', { bedrooms: 2, bathrooms: 1, date: '2026-11-25', days: 1, start_after: '10:00', finish_by: '13:00' }).expect(200);
    expect(startsOf(body.open_times)).toEqual([
      '2026-11-25T10:00:00-05:00',
      '2026-11-25T10:30:00-05:00',
      '2026-11-25T11:00:00-05:00',
      '2026-11-25T11:30:00-05:00',
    ]);
    const wide = await get('open_times', { bedrooms: 2, bathrooms: 1, days: 21 }).expect(200);
    expect(wide.body.open_times.at(-1).starts[0].slice(0, 10)).toBe('2026-12-12');
  });

  it.each([
    [{ days: 0 }, /days must be at least 1/],
    [{ days: 22 }, /days must be at most 21/],
    [{ date: '11/25/2026' }, /date must be a date YYYY-MM-DD/],
    [{ date: '2026-02-30' }, /not a real calendar day/],
    [{ start_after: '9:00' }, /start_after must be a 24-hour local time HH:MM/],
    [{ finish_by: '24:00' }, /finish_by must be a 24-hour local time HH:MM/],
    [{ start_after: '14:00', finish_by: '10:00' }, /finish_by \(10:00\) must be later than start_after \(14:00\)/],
  ])('refuses %j', async (extra, message) => {
    const { body } = await get('open_times', { bedrooms: 2, bathrooms: 1, ...extra }).expect(400);
    expect(body.error).toMatch(message);
  });
});
