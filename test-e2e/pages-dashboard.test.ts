import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import { TEST_KEY_SEALER } from '@frontdesk/dev-env/both-hosts';
import { freePort } from '@frontdesk/db';
import { createTestDatabase, signInCodeSentTo, type TestDatabase } from '@frontdesk/db/testing';
import { closeServer, createLogger, listen } from '@frontdesk/http';
import { createBookingApp } from '@frontdesk/booking';
import { createProDeskApp } from '@frontdesk/pro-desk';
import { CHROMIUM_ARGS, ensureChromium } from './browser';
import { dayLeft } from './helpers';
import { auditAtBothWidths, check, reloadAsAPerson, signInToDashboard, signUp, type Audit, type Site } from './page-flows';
import { addDays, localDate, startsOf, wallTimeToInstant } from '@frontdesk/domain';

// The owner's dashboard in a real browser, at a phone's width and a desk's: every section, every
// form and its reload, a job cancelled, moved and reported as a no-show, and notifications that
// the assistant reading its schedule does not take away.
const TEST_MS = 300_000;
jest.setTimeout(TEST_MS);
/** The zone the sign-up page offers first, which the businesses here keep. */
const ZONE = 'America/New_York';

const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the dashboard page tests: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

let t: TestDatabase;
let browser: Browser;
const servers: Server[] = [];
let book = '';
let pro = '';
const PUBLIC_KEY = 'fdpub_dash_public_key';

const site = (): Site => ({ pro, book, codeSentTo: (email) => signInCodeSentTo(t.db, email) });

/** One business's owner in the browser, with the key sign-up showed. */
interface Owner {
  page: Page;
  key: string;
  proId: string;
  audit: Audit;
  width: number;
}

const api = (o: Owner, path: string, body?: unknown) =>
  fetch(`${pro}/api/v1/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${o.key}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

/** A page as a person meets it: axe-clean and in people's words. */
/** Open starts of this business for a 2 bd / 1 ba job. */
async function openStarts(o: Owner): Promise<string[]> {
  const res = (await (await api(o, 'open_times?bedrooms=2&bathrooms=1&days=14')).json()) as { open_times: { starts: string[] }[] };
  return startsOf(res.open_times);
}

async function bookAsBusiness(o: Owner, start: string, name: string) {
  const res = await api(o, 'book_job', {
    start,
    bedrooms: 2,
    bathrooms: 1,
    customer_name: name,
    customer_phone: '(718) 555-0142',
    address: '5 Oak St',
    zip: '10001',
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { booking_id: string }).booking_id;
}

/** The job card of a customer on the page. */
const card = (page: Page, name: string) => page.locator('article.job', { hasText: name });

async function sectionsAndFormAddresses(o: Owner) {
  for (const [link, heading] of [
    ['Schedule', 'Schedule'],
    ['Leads and follow-ups', 'Leads and follow-ups'],
    ['Month', 'Month'],
    ['Settings', 'Settings'],
    ['Keys and calendar', 'Keys and calendar'],
  ]) {
    await o.page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: link, exact: true }).click();
    await o.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await check(o, `/dashboard ${heading}`);
  }
  for (const path of ['hours', 'prices', 'add-ons', 'profile', 'time-off', 'time-off/remove', 'key', 'calendar', 'notifications/read']) {
    const res = await o.page.goto(`${pro}/dashboard/${path}`);
    expect([path, res!.status(), res!.headers()['content-type']]).toEqual([path, 200, expect.stringMatching(/^text\/html/)]);
    await o.page.locator('main h1').waitFor();
    expect(await o.page.textContent('body')).not.toMatch(/There is no GET|"error"/);
  }
}

/** Opens a settings page from the Settings index and the list beside each page. */
async function openSettings(page: Page, title: string) {
  await page.goto(`${pro}/dashboard/settings`);
  await page.getByRole('main').getByRole('link', { name: title, exact: true }).click();
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
}

async function settingsForms(o: Owner) {
  const { page } = o;
  await openSettings(page, 'Prices');
  await page.getByLabel('Base, USD').fill('99999');
  await page.getByRole('button', { name: 'Save prices' }).click();
  await page.getByRole('alert').first().waitFor();
  const base = page.getByLabel('Base, USD');
  expect(await base.inputValue()).toBe('99999');
  expect(await base.getAttribute('aria-invalid')).toBe('true');
  expect(await page.locator('#f-base-error').textContent()).toBe('Base, USD must be at most 10000.');
  await check(o, '/dashboard/settings refused');

  await page.getByLabel('Base, USD').fill('75');
  await page.getByRole('button', { name: 'Save prices' }).click();
  await page.getByText('Saved your prices.').waitFor();
  await reloadAsAPerson(page);
  await page.getByText('Saved your prices.').waitFor();
  expect(((await (await api(o, 'my_business')).json()) as { prices: { base: number } }).prices.base).toBe(75);

  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Working hours' }).click();
  await page.getByLabel('Saturday').fill('');
  await page.getByRole('button', { name: 'Save hours' }).click();
  await page.getByText('Saved your working hours.').waitFor();
  await reloadAsAPerson(page);
  await check(o, '/dashboard/settings saved');

  await openSettings(page, 'Time off');
  // Days still to come on any date the suite runs (time off is refused once over).
  const firstOff = addDays(localDate(new Date(), ZONE), 60);
  await page.getByLabel('First day off').fill(firstOff);
  await page.getByLabel('Last day off').fill(addDays(firstOff, 1));
  await page.getByRole('button', { name: 'Take these days off' }).click();
  await page.getByText('Time off saved').waitFor();
  await reloadAsAPerson(page);
  await page.locator('#time-off-section').getByRole('link', { name: 'Remove' }).click();
  await check(o, 'remove time off?');
  await page.getByRole('button', { name: 'Remove this time off' }).click();
  await page.getByText('Time off removed').waitFor();
  await reloadAsAPerson(page);
  await page.getByText('Time off removed').waitFor();
  expect(((await (await api(o, 'my_business')).json()) as { time_off: unknown[] }).time_off).toEqual([]);
}

async function keyAndCalendar(o: Owner): Promise<Owner> {
  const { page } = o;
  await page.goto(`${pro}/dashboard/keys`);
  await page.getByRole('link', { name: 'Make a new key' }).click();
  expect(await page.textContent('main')).toMatch(/Your current key stops working the moment you make a new one/);
  await check(o, 'new key?');
  await page.getByRole('button', { name: 'Stop the old key and make a new one' }).click();
  const key = (await page.textContent('#new-key'))!.trim();
  await check(o, 'new key made');
  await reloadAsAPerson(page);
  expect((await page.textContent('#new-key'))!.trim()).toBe(key);
  expect((await api(o, 'my_business')).status).toBe(401);
  const owner = { ...o, key };
  expect((await api(owner, 'my_business')).status).toBe(200);

  await page.getByRole('button', { name: 'Make my calendar address' }).click();
  const address = (await page.textContent('#calendar-url'))!.trim();
  await reloadAsAPerson(page);
  expect((await page.textContent('#calendar-url'))!.trim()).toBe(address);
  const feed = await fetch(address);
  expect(feed.status).toBe(200);
  expect(await feed.text()).toMatch(/^BEGIN:VCALENDAR/);
  return owner;
}

async function jobActions(o: Owner) {
  const { page } = o;
  const starts = await openStarts(o);
  const [cancelled, moved] = [`Cass Cancel ${o.width}`, `Mo Move ${o.width}`];
  await bookAsBusiness(o, starts[starts.length - 1]!, cancelled);
  await bookAsBusiness(o, starts[starts.length - 8]!, moved);

  await page.goto(`${pro}/dashboard/schedule`);
  await card(page, cancelled).getByRole('link', { name: 'Cancel' }).click();
  expect(await page.textContent('main')).toMatch(/No fee is charged\.\s+We do not email or text\s+Cass Cancel/);
  await check(o, 'cancel a job?');
  await page.getByRole('button', { name: 'Cancel this job' }).click();
  await page
    .getByRole('status')
    .getByText(/Cancelled Cass Cancel/)
    .waitFor();
  expect(await page.getByRole('status').textContent()).toMatch(/We have not told Cass Cancel \d+; call them at \(718\) 555-0142 to let them know\./);
  await reloadAsAPerson(page);
  await page
    .getByRole('status')
    .getByText(/Cancelled Cass Cancel/)
    .waitFor();
  await check(o, 'job cancelled');

  await card(page, moved).getByRole('link', { name: 'Move' }).click();
  await page.locator('fieldset.times').first().waitFor();
  expect(await page.locator('input[type=radio]:checked').count()).toBe(0);
  expect(await page.locator('fieldset.times').count()).toBeGreaterThan(1);
  await check(o, 'move a job: the times');
  // The days around the job's own date: the first open time of those is where it goes.
  const picked = (await page.locator('input[type=radio]').first().getAttribute('value'))!;
  await page.locator('input[type=radio]').first().check();
  await page.getByRole('button', { name: 'Next: check the move' }).click();
  await check(o, 'move a job?');
  await page.getByRole('button', { name: 'Move this job' }).click();
  await page
    .getByRole('status')
    .getByText(/Moved Mo Move/)
    .waitFor();
  await reloadAsAPerson(page);
  await page
    .getByRole('status')
    .getByText(/Moved Mo Move/)
    .waitFor();

  const sched = (await (await api(o, 'schedule')).json()) as { jobs: { customer: { name: string }; start: string }[] };
  expect(sched.jobs.map((j) => j.customer.name)).toEqual([moved]);
  expect(sched.jobs[0]!.start).toBe(picked);
}

async function noShow(o: Owner) {
  const { page } = o;
  const starts = await openStarts(o);
  const name = `Nell Noshow ${o.width}`;
  const id = await bookAsBusiness(o, starts[3]!, name);
  // The job started half an hour ago, moved in the row as time would; but never before the
  // business's midnight, so it is still on Today's page when the test runs just after it.
  const now = Date.now();
  const { timezone } = await t.db
    .selectFrom('bookings')
    .innerJoin('pros', 'pros.id', 'bookings.pro_id')
    .select('pros.timezone')
    .where('bookings.id', '=', id)
    .executeTakeFirstOrThrow();
  const midnight = wallTimeToInstant(localDate(new Date(now), timezone), 0, timezone)!.getTime();
  const started = Math.min(Math.max(now - 30 * 60_000, midnight), now - 1000);
  await t.db
    .updateTable('bookings')
    .set({ starts_at: new Date(started), ends_at: new Date(now + 90 * 60_000), blocked_until: new Date(now + 90 * 60_000) })
    .where('id', '=', id)
    .execute();
  await page.goto(`${pro}/dashboard`);
  await card(page, name).getByRole('link', { name: 'Report a no-show' }).click();
  await check(o, 'report a no-show?');
  await page.getByRole('button', { name: 'Report the no-show' }).click();
  await page.getByRole('status').getByText(`Recorded that ${name} did not show up`, { exact: false }).waitFor();
  await reloadAsAPerson(page);
  await page.getByRole('status').getByText(`Recorded that ${name} did not show up`, { exact: false }).waitFor();
}

async function notificationsStay(o: Owner) {
  const { page } = o;
  const name = `Rosa Diaz ${o.width}`;
  const starts = await openStarts(o);
  const booked = await fetch(`${book}/api/v1/book_cleaning`, {
    method: 'POST',
    headers: { authorization: `Bearer ${PUBLIC_KEY}`, 'content-type': 'application/json', 'x-client-name': 'ChatGPT' },
    body: JSON.stringify({
      cleaner_id: o.proId,
      start: starts[5],
      bedrooms: 2,
      bathrooms: 1,
      customer_name: name,
      customer_phone: '(212) 555-0177',
      address: '9 Elm St',
      zip: '10001',
    }),
  });
  expect(booked.status).toBe(200);
  // The assistant reads its schedule, which marks its notifications read, as before.
  const first = (await (await api(o, 'schedule')).json()) as { notifications: { message: string }[] };
  expect(first.notifications.some((n) => n.message.includes(name))).toBe(true);
  expect(((await (await api(o, 'schedule')).json()) as { notifications: unknown[] }).notifications).toEqual([]);

  await page.goto(`${pro}/dashboard`);
  const fresh = page.locator('section', { has: page.getByRole('heading', { name: /^New \(\d+\)$/ }) });
  expect(await fresh.textContent()).toContain(name);
  await check(o, '/dashboard with news');
  if (o.width === 375) {
    mkdirSync('/tmp/shots', { recursive: true });
    await page.screenshot({ path: '/tmp/shots/dashboard-today-375.png', fullPage: true });
  }
  await page.getByRole('button', { name: 'I have seen these' }).click();
  await page.getByText('Nothing new since you last looked.').waitFor();
  await reloadAsAPerson(page);
  await page.getByText('Nothing new since you last looked.').waitFor();
  expect(await page.locator('section', { hasText: 'What happened lately' }).textContent()).toContain(name);
}

maybe('the owner’s dashboard in a real browser', () => {
  beforeAll(async () => {
    t = await createTestDatabase();
    const [bookPort, proPort] = [await freePort(), await freePort()];
    book = `http://127.0.0.1:${bookPort}`;
    pro = `http://127.0.0.1:${proPort}`;
    const logger = createLogger('pages-dashboard', 'silent');
    const clock = () => new Date();
    const common = { proDeskUrl: pro, bookingUrl: book, publicSharedKey: PUBLIC_KEY, mcpAllowedOrigins: [], keySealer: TEST_KEY_SEALER, checkAnswers: true };
    const bookApp = createBookingApp({
      db: t.db,
      config: { ...common, publicUrl: book, publicClientId: 'front-desk', publicClientRedirectUris: [] },
      logger,
      clock,
    });
    servers.push(await listen(bookApp.app, bookPort, '127.0.0.1'));
    servers.push(await listen(createProDeskApp({ db: t.db, config: { ...common, publicUrl: pro }, logger, clock }).app, proPort, '127.0.0.1'));
    browser = await chromium.launch({ executablePath: (found as { path: string }).path, headless: true, args: CHROMIUM_ARGS });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map(closeServer));
    await t?.drop();
  });

  // The no-show's job is today's from when it is put there until Today shows it: never across midnight.
  beforeEach(() => dayLeft(ZONE, TEST_MS), TEST_MS + 6 * 60_000);

  it('runs every section, form, job action and reload at 375 and 1280 px: axe-clean, in people’s words, asking nothing of another origin', async () => {
    const elsewhere: string[] = [];
    await auditAtBothWidths(browser, async (page, width, audit) => {
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (/^https?:$/.test(url.protocol) && url.origin !== pro && url.origin !== book) elsewhere.push(r.url());
      });
      const email = `owner${width}@dash.example`;
      const name = `Tidy ${width}`;
      const key = await signUp(page, site(), email, name);
      const proId = ((await (await fetch(`${pro}/api/v1/my_business`, { headers: { authorization: `Bearer ${key}` } })).json()) as { pro_id: string }).pro_id;
      let o: Owner = { page, key, proId, audit, width };
      await signInToDashboard(page, site(), email, name);
      await check(o, '/dashboard');
      await sectionsAndFormAddresses(o);
      await settingsForms(o);
      o = await keyAndCalendar(o);
      await jobActions(o);
      await noShow(o);
      await notificationsStay(o);
    });
    expect(elsewhere).toEqual([]);
  });
});
