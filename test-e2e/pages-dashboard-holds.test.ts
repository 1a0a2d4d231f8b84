import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { DEFAULT_WEEKLY_HOURS, addDays, localDate, startsOf, wallTimeToInstant, type OpenDay } from '@frontdesk/domain';
import { createBusiness } from '@frontdesk/use-cases';
import { ensureChromium } from './browser';
import { dayLeft } from './helpers';
import { siteOf, startPageHosts, type PageHosts } from './page-hosts';
import { auditAtBothWidths, check, doneSays, reloadAsAPerson, signInToDashboard, type Audit } from './page-flows';

// The dashboard's Today and Schedule in a real browser at a phone's width and a desk's: times
// the business pencilled in (hold_time on its own host) shown and released through a page
// that says what releasing does, the time then open again for the API; Today's jobs before
// the notices on a phone, in one list with the times pencilled in by start, a no-show kept on
// Today marked as such, and the booking page's address to copy (by button with script, as
// selectable text without). Every page axe-clean and in people's words; a reload after each
// form repeats nothing. Screenshots go to SHOTS_DIR (default /tmp/shots).
jest.setTimeout(300_000);

const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the dashboard holds page tests: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

const ZONE = 'America/New_York';
/** How long the test may run (jest.setTimeout above). */
const TEST_MS = 300_000;
const PUBLIC = 'fdpub_dashholds_public_key';
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots';

let h: PageHosts | undefined;
const hosts = () => h!;

/** One business's owner in the browser. */
interface Owner {
  page: Page;
  key: string;
  proId: string;
  audit: Audit;
  width: number;
}

async function call<T>(host: string, path: string, auth: string, body?: unknown): Promise<T> {
  const res = await fetch(`${host}/api/v1/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const answer = (await res.json()) as T;
  expect([path, res.status, answer]).toEqual([path, 200, expect.anything()]);
  return answer;
}
const proCall = <T>(o: Owner, path: string, body?: unknown) => call<T>(hosts().pro, path, o.key, body);

/** The open starts of the next two weeks for a 2 bd / 1 ba job, as open_times lists them. */
const openStarts = async (o: Owner) => startsOf((await proCall<{ open_times: OpenDay[] }>(o, 'open_times?bedrooms=2&bathrooms=1&days=14')).open_times);

const card = (page: Page, text: string) => page.locator('article.job', { hasText: text });
const todayMidnight = (now: Date) => wallTimeToInstant(localDate(now, ZONE), 0, ZONE)!.getTime();
const nextMidnight = (now: Date) => wallTimeToInstant(addDays(localDate(now, ZONE), 1), 0, ZONE)!.getTime();

/** Moves a row's times as time passing would (a start today), keeping its length and buffer. */
async function moveRow(table: 'bookings' | 'holds', id: string, startsAt: number) {
  const row = await hosts().t.db.selectFrom(table).select(['starts_at', 'ends_at', 'blocked_until']).where('id', '=', id).executeTakeFirstOrThrow();
  const shift = startsAt - row.starts_at.getTime();
  const moved = {
    starts_at: new Date(startsAt),
    ends_at: new Date(row.ends_at.getTime() + shift),
    blocked_until: new Date(row.blocked_until.getTime() + shift),
  };
  await hosts().t.db.updateTable(table).set(moved).where('id', '=', id).execute();
}

/** A customer's booking through the book host (a notice for the owner), moved to have started earlier today. */
async function jobEarlierToday(o: Owner, name: string): Promise<void> {
  const starts = await openStarts(o);
  const booked = await call<{ booking_id: string }>(hosts().book, 'book_cleaning', PUBLIC, {
    cleaner_id: o.proId,
    start: starts[0],
    bedrooms: 2,
    bathrooms: 1,
    customer_name: name,
    customer_phone: '(212) 555-0177',
    address: '9 Elm St',
    zip: '10001',
  });
  const now = new Date();
  // Started up to three hours ago, never before the business's midnight: still today's job.
  await moveRow('bookings', booked.booking_id, Math.min(Math.max(now.getTime() - 3 * 3_600_000, todayMidnight(now)), now.getTime() - 60_000));
}

/** Today: its jobs before the notices (on a phone, one column), and the booking page's address to copy. */
async function todayOrderAndAddress(o: Owner, name: string) {
  const { page } = o;
  await page.goto(`${hosts().pro}/dashboard`);
  const jobs = page.getByRole('heading', { name: "Today's jobs", level: 2 });
  const fresh = page.getByRole('heading', { name: /^New \(1\)$/, level: 2 });
  expect(await card(page, name).count()).toBe(1);
  const [jobsBox, freshBox] = [await jobs.boundingBox(), await fresh.boundingBox()];
  expect(jobsBox!.y).toBeLessThan(freshBox!.y);
  if (o.width === 375) expect(await card(page, name).evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThan(freshBox!.y);
  const address = `${hosts().book}/book/${o.proId}`;
  const field = page.getByLabel('Your booking page address');
  expect(await field.inputValue()).toBe(address);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: hosts().pro });
  await page.getByRole('button', { name: 'Copy the address' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  expect(
    await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText()),
  ).toBe(address);
  await check(o, '/dashboard with a job and news');

  // Without script the address is still there to select, and no button promises a copy.
  const noScript = await hosts().browser.newContext({ javaScriptEnabled: false, viewport: { width: o.width, height: 800 } });
  try {
    await noScript.addCookies(await page.context().cookies());
    const plain = await noScript.newPage();
    await plain.goto(`${hosts().pro}/dashboard`);
    expect(await plain.getByLabel('Your booking page address').inputValue()).toBe(address);
    expect(await plain.getByRole('button', { name: 'Copy the address' }).count()).toBe(0);
  } finally {
    await noScript.close();
  }
}

/** A no-show reported from Today stays on Today, marked, with nothing more to do to it. */
async function noShowStays(o: Owner, name: string) {
  const { page } = o;
  await card(page, name).getByRole('link', { name: 'Report a no-show' }).click();
  await page.getByRole('button', { name: 'Report the no-show' }).click();
  await doneSays(page, `Recorded that ${name} did not show up`);
  await page.goto(`${hosts().pro}/dashboard`);
  const marked = card(page, name);
  expect(await marked.getByRole('heading', { level: 3 }).textContent()).toMatch(/\(no-show\)$/);
  expect(await marked.textContent()).toMatch(/No-show: reported; the job stays in your records\./);
  expect(await marked.locator('.job-actions').count()).toBe(0);
  await check(o, '/dashboard with a no-show');
}

/**
 * Today lists its jobs and the times pencilled in for today as one list by start: a time
 * pencilled in just after midnight comes before the job (moved here to two in the morning).
 */
async function todayInTimeOrder(o: Owner, name: string) {
  const { page } = o;
  const starts = await openStarts(o);
  const held = await proCall<{ hold_id: string }>(o, 'hold_time', { bedrooms: 2, bathrooms: 1, start: starts[starts.length - 1], minutes: 240 });
  const { id } = await hosts().t.db.selectFrom('bookings').select('id').where('pro_id', '=', o.proId).executeTakeFirstOrThrow();
  const midnight = todayMidnight(new Date());
  await moveRow('bookings', id, midnight + 2 * 3_600_000);
  await moveRow('holds', held.hold_id, midnight + 60_000);
  await page.goto(`${hosts().pro}/dashboard`);
  const cards = await page.locator('#today ~ article.job').allTextContents();
  expect(cards).toHaveLength(2);
  expect(cards[0]).toMatch(/Pencilled in until/);
  expect(cards[1]).toContain(name);
  await check(o, '/dashboard with a time pencilled in before a job');
  await proCall(o, 'release_hold', { hold_id: held.hold_id });
}

/** A time pencilled in for today: on Today, released from there, back on Today with what it did. */
async function releaseFromToday(o: Owner) {
  const { page } = o;
  const starts = await openStarts(o);
  const held = await proCall<{ hold_id: string }>(o, 'hold_time', { bedrooms: 2, bathrooms: 1, start: starts[starts.length - 1], minutes: 240 });
  const now = new Date();
  // An hour from now, or after today's job where that runs later (just after midnight it does), still today.
  const { until } = await hosts()
    .t.db.selectFrom('bookings')
    .select((eb) => eb.fn.max('blocked_until').as('until'))
    .where('pro_id', '=', o.proId)
    .where('starts_at', '<', new Date(nextMidnight(now)))
    .executeTakeFirstOrThrow();
  const after = Math.max(now.getTime() + 60 * 60_000, until ? new Date(until).getTime() : 0);
  await moveRow('holds', held.hold_id, Math.min(after, nextMidnight(now) - 2 * 60_000));
  await page.goto(`${hosts().pro}/dashboard`);
  const pencilled = card(page, 'Pencilled in until');
  expect(await pencilled.textContent()).toMatch(/Standard clean, 2 bd \/ 1 ba, \$\d+\.\d\d/);
  await check(o, '/dashboard with a time pencilled in');
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/dashboard-today-hold-${o.width}.png`, fullPage: true });
  await pencilled.getByRole('link', { name: 'Release' }).click();
  await page.getByRole('heading', { name: 'Release this time?', level: 1 }).waitFor();
  expect(await page.textContent('main')).toContain('the time goes back to your open times; nothing is sent to anyone.');
  await check(o, 'release a time pencilled in for today?');
  await page.getByRole('button', { name: 'Release this time' }).click();
  await doneSays(page, /^Released the time pencilled in on .*: it goes back to your open times\. Nothing was sent to anyone\.$/);
  expect(new URL(page.url()).pathname).toBe('/dashboard');
  expect(await card(page, 'Pencilled in until').count()).toBe(0);
  await check(o, '/dashboard after a release');
}

/** A time pencilled in for a lead: on Schedule, released, and the API offers it again. */
async function releaseFromSchedule(o: Owner) {
  const { page } = o;
  const lead = await proCall<{ lead: { lead_id: string } }>(o, 'log_lead', {
    source: 'website',
    customer_first_name: `Dana${o.width}`,
    contact: 'dana@example.com',
    zip: '10001',
    bedrooms: 2,
    bathrooms: 1,
  });
  const starts = await openStarts(o);
  const start = starts[Math.floor(starts.length / 2)]!;
  const held = await proCall<{ hold_id: string }>(o, 'hold_time', { bedrooms: 2, bathrooms: 1, start, lead_id: lead.lead.lead_id });
  expect(await openStarts(o)).not.toContain(start);

  await page.goto(`${hosts().pro}/dashboard/schedule`);
  const pencilled = card(page, `Pencilled in for Dana${o.width} until`);
  expect(await pencilled.textContent()).toMatch(/Standard clean, 2 bd \/ 1 ba, \$\d+\.\d\d/);
  await check(o, '/dashboard/schedule with a time pencilled in');
  await page.screenshot({ path: `${SHOTS}/dashboard-schedule-hold-${o.width}.png`, fullPage: true });
  await pencilled.getByRole('link', { name: 'Release' }).click();
  expect(await page.textContent('main')).toMatch(new RegExp(`Pencilled in for Dana${o.width} until`));
  await check(o, 'release a time pencilled in for a lead?');
  await page.getByRole('button', { name: 'Release this time' }).click();
  await doneSays(page, new RegExp(`^Released the time pencilled in for Dana${o.width} on .*: it goes back to your open times\\.`));
  expect(new URL(page.url()).pathname).toBe('/dashboard/schedule');
  await reloadAsAPerson(page);
  expect(await page.getByText('Pencilled in (').count()).toBe(0);
  await check(o, '/dashboard/schedule after a release');

  // The same time is open again for the API, and nothing is pencilled in any more.
  expect(await openStarts(o)).toContain(start);
  expect((await proCall<{ holds: unknown[] }>(o, 'schedule')).holds).toEqual([]);
  // The release page opened again says so in words, with no button.
  await page.goto(`${hosts().pro}/dashboard/holds/${held.hold_id}/release`);
  expect(await page.textContent('main')).toMatch(/was released already: it is back among your open times\. Nothing changed\./);
  expect(await page.getByRole('button', { name: 'Release this time' }).count()).toBe(0);
  await check(o, 'a released time');
}

maybe('times pencilled in and Today on the dashboard, in a real browser', () => {
  beforeAll(async () => {
    h = await startPageHosts('dashholds', (found as { path: string }).path);
  }, 120_000);
  afterAll(() => h?.close());
  // Its jobs are today's from when they are put there until Today shows them: never across midnight.
  beforeEach(() => dayLeft(ZONE, TEST_MS), TEST_MS + 6 * 60_000);

  it('shows and releases pencilled-in times, keeps a no-show on Today and lists jobs first, at 375 and 1280 px', async () => {
    await auditAtBothWidths(hosts().browser, async (page, width, audit) => {
      const email = `owner${width}@dashholds.example`;
      const name = `Pencil ${width}`;
      const { pro, apiKey } = await createBusiness(hosts().t.db, {
        name,
        timezone: ZONE,
        service_zips: ['10001'],
        weekly_hours: DEFAULT_WEEKLY_HOURS,
        owner_email: email,
      });
      const o: Owner = { page, key: apiKey, proId: pro.id, audit, width };
      const customer = `Nell Noshow ${width}`;
      await jobEarlierToday(o, customer);
      await signInToDashboard(page, siteOf(hosts()), email, name);
      await todayOrderAndAddress(o, customer);
      await noShowStays(o, customer);
      await todayInTimeOrder(o, customer);
      await releaseFromToday(o);
      await releaseFromSchedule(o);
    });
  });
});
