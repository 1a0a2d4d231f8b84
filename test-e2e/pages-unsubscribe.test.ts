import type { Browser } from 'playwright-core';
import { mintUnsubscribeToken } from '@frontdesk/db';
import { createBusiness, unsubscribeLinkInfo } from '@frontdesk/use-cases';
import { DEFAULT_WEEKLY_HOURS } from '@frontdesk/domain';
import { ensureChromium } from './browser';
import { startPageHosts, type PageHosts } from './page-hosts';
import { auditAtBothWidths, check, reloadAsAPerson } from './page-flows';

// The unsubscribe page a reminder links, in a real browser at a phone's width and a desk's,
// without JavaScript: it asks first, the button stops the mails, and a reload repeats nothing.
jest.setTimeout(120_000);

const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the unsubscribe page tests: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

let hosts: PageHosts | undefined;
let browser: Browser;

maybe('the unsubscribe page', () => {
  beforeAll(async () => {
    hosts = await startPageHosts('unsubscribe', (found as { path: string }).path);
    browser = hosts.browser;
  }, 120_000);
  afterAll(() => hosts?.close());

  it('asks, then stops the mails with its one button, axe-clean at 375 and 1280 px and safe to reload', async () => {
    await auditAtBothWidths(browser, async (page, width, audit) => {
      const { pro } = await createBusiness(hosts!.t.db, {
        name: `Unsub Clean ${width}`,
        timezone: 'America/New_York',
        service_zips: ['10001'],
        weekly_hours: DEFAULT_WEEKLY_HOURS,
      });
      const token = await mintUnsubscribeToken(hosts!.t.db, { proId: pro.id, email: `rae${width}@example.com`, now: new Date() });
      await page.goto(`${hosts!.book}/unsubscribe/${token}`);
      await check({ page, audit }, 'unsubscribe: asked');
      expect(await unsubscribeLinkInfo(hosts!.t.db, token)).toMatchObject({ done: false });
      await page.getByRole('button', { name: 'Stop these emails' }).click();
      await page.getByText(`Done: Unsub Clean ${width} will send you no more reminders`).waitFor();
      await check({ page, audit }, 'unsubscribe: done');
      await reloadAsAPerson(page);
      await page.getByText('Booking confirmations still come.').waitFor();
      expect(await unsubscribeLinkInfo(hosts!.t.db, token)).toMatchObject({ done: true });
    });
  });

  it('works without JavaScript', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    try {
      const { pro } = await createBusiness(hosts!.t.db, {
        name: 'No Script Unsub',
        timezone: 'America/New_York',
        service_zips: ['10001'],
        weekly_hours: DEFAULT_WEEKLY_HOURS,
      });
      const token = await mintUnsubscribeToken(hosts!.t.db, { proId: pro.id, email: 'noscript@example.com', now: new Date() });
      const page = await context.newPage();
      await page.goto(`${hosts!.book}/unsubscribe/${token}`);
      await page.getByRole('button', { name: 'Stop these emails' }).click();
      await page.getByText('Done: No Script Unsub').waitFor();
    } finally {
      await context.close();
    }
  });
});
