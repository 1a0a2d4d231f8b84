import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { ensureChromium } from './browser';
import { startPageHosts, siteOf, type PageHosts } from './page-hosts';
import { auditAtBothWidths, check, signInToDashboard, signUp, type Audit } from './page-flows';

// The dashboard's width and Settings' pages in a real browser at a phone's width and a desk's:
// each settings page reached from the index, short, axe-clean; at 1280 px the main column is
// wider than the old 34 rem and a list stands beside its detail (settings, a crew, webhooks),
// while the booking page keeps its narrow column; the booking page's address is text without
// script and copied by its button with it.
jest.setTimeout(300_000);

const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the settings page tests: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

let hosts: PageHosts | undefined;
let browser: Browser;

const REM = 16;
/** The tallest a settings page may be at each width, in px (Settings was one page of about 5,700 px at 1280). */
const TALLEST = { 375: 2400, 1280: 1400 } as const;
const PAGES = ['Prices', 'Add-ons', 'Working hours', 'Service area', 'Time off', 'Notices', 'Customer messages', 'Booking page'];

const box = async (l: Locator) => (await l.boundingBox())!;
const pageHeight = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document.documentElement.scrollHeight);

/** At 1280 px the list stands to the left of its detail, both starting at the same height; at 375 px the detail comes after the list. */
async function listBesideDetail(page: Page, width: number, what: string) {
  const [list, detail] = [await box(page.locator('.split > :first-child')), await box(page.locator('.split > .detail'))];
  const beside = list.x + list.width <= detail.x && Math.abs(list.y - detail.y) < 2;
  const after = detail.y >= list.y + list.height;
  expect([what, width, width === 1280 ? beside : after]).toEqual([what, width, true]);
}

async function settingsPages(page: Page, width: number, audit: Audit) {
  const heights: Record<string, number> = {};
  for (const title of PAGES) {
    await page.goto(`${hosts!.pro}/dashboard/settings`);
    await page.getByRole('main').getByRole('link', { name: title, exact: true }).click();
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: title }).getAttribute('aria-current')).toBe('page');
    await check({ page, audit }, `settings: ${title}`);
    await listBesideDetail(page, width, title);
    heights[title] = await pageHeight(page);
  }
  process.stdout.write(`\nSettings pages at ${width} px, height in px: ${JSON.stringify(heights)}\n`);
  for (const [title, height] of Object.entries(heights)) expect([title, width, height <= TALLEST[width as 375 | 1280]]).toEqual([title, width, true]);
  const main = await box(page.locator('main'));
  if (width === 1280) expect(main.width).toBeGreaterThan(34 * REM);
  else expect(main.width).toBeLessThanOrEqual(width);
}

async function bookingAddress(page: Page, width: number, proId: string) {
  await page.goto(`${hosts!.pro}/dashboard/settings/booking-page`);
  const address = `${hosts!.book}/book/${proId}`;
  expect(await page.locator('#booking-page-url').inputValue()).toBe(address);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: hosts!.pro });
  await page.getByRole('button', { name: 'Copy the address' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  expect(
    await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText()),
  ).toBe(address);
  mkdirSync('/tmp/shots', { recursive: true });
  await page.screenshot({ path: `/tmp/shots/dashboard-settings-booking-page-${width}.png`, fullPage: true });
  await page.goto(`${hosts!.pro}/dashboard/settings/prices`);
  await page.screenshot({ path: `/tmp/shots/dashboard-settings-${width}.png`, fullPage: true });
}

/** A crew's page and the webhooks page: the list beside the one thing (or the form) at 1280 px. */
async function otherLists(page: Page, width: number, audit: Audit) {
  await page.goto(`${hosts!.pro}/dashboard/crews`);
  await listBesideDetail(page, width, 'crews');
  await page.locator('.crew-list a').first().click();
  await page.getByRole('navigation', { name: 'Your crews' }).waitFor();
  await check({ page, audit }, 'a crew, the crews beside it');
  await listBesideDetail(page, width, 'a crew');
  await page.goto(`${hosts!.pro}/dashboard/webhooks`);
  await check({ page, audit }, 'webhooks beside the add form');
  await listBesideDetail(page, width, 'webhooks');
}

/** The booking page shares the kit: its column stays as narrow as it was at a desk's width. */
async function bookingPageStaysNarrow(page: Page, width: number, audit: Audit, proId: string) {
  await page.goto(`${hosts!.book}/book/${proId}`);
  await page.locator('main h1').waitFor();
  await audit('the booking page');
  const main = await box(page.locator('main'));
  expect(main.width).toBeLessThanOrEqual(Math.min(34 * REM, width));
  await page.screenshot({ path: `/tmp/shots/booking-page-${width}.png`, fullPage: true });
}

maybe('the dashboard at a desk’s width, and Settings in short pages', () => {
  beforeAll(async () => {
    hosts = await startPageHosts('settings', (found as { path: string }).path);
    browser = hosts.browser;
  }, 120_000);
  afterAll(() => hosts?.close());

  it('shows each settings page short and axe-clean, lists beside their detail at 1280 px, and the booking page address to copy', async () => {
    await auditAtBothWidths(browser, async (page, width, audit) => {
      const email = `settings${width}@dash.example`;
      const name = `Settings ${width}`;
      const key = await signUp(page, siteOf(hosts!), email, name);
      await signInToDashboard(page, siteOf(hosts!), email, name);
      const me = (await (await fetch(`${hosts!.pro}/api/v1/my_business`, { headers: { authorization: `Bearer ${key}` } })).json()) as { pro_id: string };
      await settingsPages(page, width, audit);
      await bookingAddress(page, width, me.pro_id);
      await otherLists(page, width, audit);
      await bookingPageStaysNarrow(page, width, audit, me.pro_id);
    });
  });

  it('shows the booking page address as selectable text without JavaScript, its copy button hidden', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    try {
      const page = await context.newPage();
      const email = 'nojs@dash.example';
      await signUp(page, siteOf(hosts!), email, 'No Script Cleaning');
      await signInToDashboard(page, siteOf(hosts!), email, 'No Script Cleaning');
      await page.goto(`${hosts!.pro}/dashboard/settings`);
      expect(await page.locator('#booking-page-url').inputValue()).toMatch(new RegExp(`^${hosts!.book}/book/pro_[a-z0-9]+$`));
      expect(await page.getByRole('button', { name: 'Copy the address' }).isVisible()).toBe(false);
    } finally {
      await context.close();
    }
  });
});
