import type { Browser } from 'playwright-core';
import { AIRBNB_PRODID, CalendarServer, airbnbStay, calendar } from '@frontdesk/dev-env/ical-fixtures';
import { addDays, DEFAULT_WEEKLY_HOURS, localDate } from '@frontdesk/domain';
import { createBusiness } from '@frontdesk/use-cases';
import { ensureChromium } from './browser';
import { startPageHosts, type PageHosts } from './page-hosts';
import { auditAtBothWidths, check, doneSays, reloadAsAPerson } from './page-flows';

// A host's rental page (the link request_turnovers answers), in a real browser at a phone's
// width and a desk's: the stays and their cleans in people's words, axe-clean, and stopping the
// arrangement asks first, then says it is done, and a reload repeats nothing. The page after
// stopping says what was recorded, never a count from its address, and only for the link's own
// rental; the links opened again once stopped say so, with nothing left to stop.
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

      // The page after stopping, asked for while the rental runs, takes no count from its address: it is the rental's page.
      await page.goto(`${manage_url}/stopped?cancelled=7`);
      await page.getByRole('heading', { name: 'Pine loft' }).waitFor();
      expect(await page.getByText(/Stopped|cancelled/).count()).toBe(0);
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
      await doneSays(page, 'Stopped. Your calendars are no longer read, and 1 upcoming clean was cancelled.');
      await check({ page, audit }, 'rental: stopped');
      // What stopping did is what was recorded, whatever the address says.
      await page.goto(`${manage_url}/stopped?cancelled=7`);
      await page.getByRole('status').getByText('Stopped. Your calendars are no longer read, and 1 upcoming clean was cancelled.').waitFor();
      expect(await page.getByText(/\b7\b/).count()).toBe(0);

      // The stop link (and the rental's link) opened again say, in words, that the cleans are stopped, and offer nothing to stop; a reload says the same.
      const alreadyStopped = new RegExp(
        `^You stopped these turnover cleans on \\w{3}, \\w{3} \\d+: Rental Clean ${width} no longer reads your calendars, and 1 upcoming clean was cancelled then\\. There is nothing more to stop\\.$`,
      );
      for (const link of [`${manage_url}/stop`, manage_url]) {
        await page.goto(link);
        for (const reload of [false, true]) {
          if (reload) await reloadAsAPerson(page);
          await page.getByRole('heading', { name: 'Turnover cleans stopped', level: 1 }).waitFor();
          await page.getByText(alreadyStopped).waitFor();
          expect(await page.getByText(/No rental matches this link/).count()).toBe(0);
          expect(await page.getByRole('button').count()).toBe(0);
          expect(await page.getByRole('link', { name: 'Stop the turnover cleans' }).count()).toBe(0);
        }
        await check({ page, audit }, `rental: ${link.endsWith('/stop') ? 'stop link' : 'link'} once stopped`);
      }

      // A link that opens no rental, stopped or running, shows the page every unknown link shows, whatever count it carries.
      const unknown = new URL(manage_url);
      unknown.pathname = `/rental/${'x'.repeat(43)}/stopped`;
      unknown.search = '?cancelled=3';
      const answer = await page.goto(unknown.toString());
      expect(answer!.status()).toBe(404);
      await page.getByText('No rental matches this link. Check that it was copied whole.').waitFor();
      expect(await page.getByText(/Stopped|cancelled/).count()).toBe(0);
      await check({ page, audit }, 'rental: unknown stopped link');
      expect(await hosts!.t.db.selectFrom('properties').select('id').where('id', '=', property_id).execute()).toEqual([]);
    });
  });
});
