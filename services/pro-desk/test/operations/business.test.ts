// my_business and schedule (src/operations/business.ts).
import { proDeskHarnessPerFile, newPro } from '@frontdesk/dev-env/pro-desk';

const h = proDeskHarnessPerFile();
/** One business shared by this file's tests of its own schedule. */
let auth: Record<string, string>;
beforeAll(async () => {
  ({ auth } = await newPro(h));
});

describe('my_business', () => {
  it('shows the profile, prices, add-ons, service ZIPs, hours and booking page', async () => {
    const { body } = await h.api.get('/api/v1/my_business').set(auth).expect(200);
    expect(body).toMatchObject({
      timezone: 'America/New_York',
      service_zips: ['10001'],
      prices: { currency: 'USD', base: 60, per_bedroom: 20, per_bathroom: 25, per_half_bathroom: 12.5, minimum: 120 },
      working_hours: { monday: ['08:00-17:00'], sunday: [] },
      min_notice_hours: 12,
    });
    expect(body.booking_page).toBe(`http://book.test/book/${body.pro_id}`);
    expect(body.add_ons.map((a: { name: string }) => a.name)).toEqual(['cabinets', 'fridge', 'laundry', 'oven', 'windows']);
  });
});

describe('schedule', () => {
  it('returns unread notifications once and marks them read', async () => {
    const pro = await newPro(h);
    await h.t.db
      .insertInto('notifications')
      .values({ id: 'ntf_1', pro_id: pro.pro.id, booking_id: null, kind: 'booking.created', message: 'New booking by ChatGPT', read_at: null })
      .execute();
    const first = await h.api.get('/api/v1/schedule').set(pro.auth).expect(200);
    expect(first.body.notifications).toMatchObject([{ id: 'ntf_1', message: 'New booking by ChatGPT' }]);
    const second = await h.api.get('/api/v1/schedule').set(pro.auth).expect(200);
    expect(second.body.notifications).toEqual([]);
  });
});
