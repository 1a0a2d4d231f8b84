import type { Browser } from 'playwright-core';
import { AIRBNB_PRODID, CalendarServer, airbnbStay, calendar } from '@frontdesk/dev-env/ical-fixtures';
import { addDays, DEFAULT_WEEKLY_HOURS, localDate } from '@frontdesk/domain';
import { createBusiness } from '@frontdesk/use-cases';
import { ensureChromium } from './browser';
import { startPageHosts, type PageHosts } from './page-hosts';
import { auditAtBothWidths, check, doneSays } from './page-flows';

// A host's rental page (the link request_turnovers answers), in a real browser at a phone's
// width and a desk's: the stays and their cleans in people's words, axe-clean, and stopping the
// arrangement asks first, then says it is done, and a reload repeats nothing.
jest.setTimeout(120_000);

const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the rental page tests: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

let hosts: PageHosts | undefined;
let browser: Browser;
const cal = new CalendarServer();

maybe('the rental page', () => {
  beforeAll(async () => {
    await cal.start();
    hosts = await startPageHosts('rental', (found as { path: string }).path);
    browser = hosts.browser;
  }, 120_000);
  afterAll(async () => {
    await hosts?.close();
    await cal.stop();
  });

  it('shows the stays and cleans, and stops the turnover cleans after asking, axe-clean at 375 and 1280 px and safe to reload', async () => {
    await auditAtBothWidths(browser, async (page, width, audit) => {
      const { pro, apiKey } = await createBusiness(hosts!.t.db, {
        name: `Rental Clean ${width}`,
        timezone: 'America/New_York',
        service_zips: ['10001'],
        weekly_hours: DEFAULT_WEEKLY_HOURS,
      });
      const pro$ = (op: string, body: object) =>
        fetch(`${hosts!.pro}/api/v1/${op}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await pro$('update_business', { host_turnovers: 'book' })).status).toBe(200);
      const today = localDate(new Date(), 'America/New_York');
      const url = cal.serve(`/rental-${width}.ics`, { body: calendar(AIRBNB_PRODID, [airbnbStay(`r${width}`, addDays(today, 3), addDays(today, 5))]) });
      const asked = await fetch(`${hosts!.book}/api/v1/request_turnovers`, {
        method: 'POST',
        headers: {
          Authorization: 'Bearer fdpub_rental_public_key',
          'content-type': 'application/json',
          'X-User-Name': 'Rae Host',
          'X-User-Email': `rae${width}@example.com`,
        },
        body: JSON.stringify({ cleaner_id: pro.id, name: 'Pine loft', address: '4 Hill Rd', zip: '10001', bedrooms: 1, bathrooms: 1, calendar_urls: [url] }),
      });
      expect(asked.status).toBe(200);
      const { property_id, manage_url } = (await asked.json()) as { property_id: string; manage_url: string };
      expect((await pro$('sync_property', { property_id })).status).toBe(200);

      await page.goto(manage_url);
      await page.getByRole('heading', { name: 'Pine loft' }).waitFor();
      await page.getByText(/^Guests from \w{3}, \w{3} \d+ to \w{3}, \w{3} \d+$/).waitFor();
      await check({ page, audit }, 'rental: stays');
      await page.getByRole('link', { name: 'Stop the turnover cleans' }).click();
      await page.getByRole('button', { name: 'Stop the cleans' }).waitFor();
      await page.getByText(/^Cancelling is free until 24 hours before a visit starts/).waitFor();
      expect(await page.getByText(/starts within 24 hours/).count()).toBe(0);
      // The clean moved (by hand, here in the table) to three hours from now: asking to stop now warns of it, as every cancel confirmation does.
      const soon = new Date(Date.now() + 3 * 3_600_000);
      await hosts!.t.db
        .updateTable('bookings')
        .set({ starts_at: soon, ends_at: new Date(soon.getTime() + 2 * 3_600_000), blocked_until: new Date(soon.getTime() + 2 * 3_600_000) })
        .where('property_id', '=', property_id)
        .execute();
      await page.reload();
      await page
        .getByText(/^The clean on .* starts within 24 hours: stopping still cancels it, but Rental Clean \d+ may charge under their own policy\.$/)
        .waitFor();
      await check({ page, audit }, 'rental: asked to stop');
      await page.getByRole('button', { name: 'Stop the cleans' }).click();
      await doneSays(page, /^Stopped\. Your calendars are no longer read/);
      await check({ page, audit }, 'rental: stopped');
      expect(await hosts!.t.db.selectFrom('properties').select('id').where('id', '=', property_id).execute()).toEqual([]);
    });
  });
});
