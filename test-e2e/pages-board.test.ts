import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { addDays, isoWeekday, localDate } from '@frontdesk/domain';
import { createBusiness } from '@frontdesk/use-cases';
import { ensureChromium } from './browser';
import { proCall, siteOf, startPageHosts, type PageHosts } from './page-hosts';
import { auditAtBothWidths, check, doneSays, reloadAsAPerson, signInToDashboard, type Audit } from './page-flows';

// The dispatch board in a real browser: an owner with 3 crews and 40 jobs next week. At 1280 px
// every job sits in its crew's row and its day's column, as `schedule` answers; a move and a
// crew change started from a block land and survive a reload. At 375 px the same jobs read as
// each crew's days. Axe-clean at both widths, no request leaves the two hosts, and the board
// renders with JavaScript off. Screenshots go to SHOTS_DIR (default /tmp/shots).
jest.setTimeout(300_000);

const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the board page tests: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots';
const ZONE = 'America/New_York';
const EVERY_DAY = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, [{ start: '07:00', end: '19:00' }]]));

let h: PageHosts | undefined;
const hosts = () => h!;

interface Job {
  booking_id: string;
  start: string;
  crew_id: string;
  crew_name: string;
  customer: { name: string };
}

interface Owner {
  email: string;
  name: string;
  key: string;
  crews: { crew_id: string; name: string }[];
  week: string;
}

const call = <T>(key: string, path: string, body?: unknown) => proCall<T>(hosts(), key, path, body);

/**
 * A business open 7 AM to 7 PM every day with three crews, and 40 jobs next week booked with
 * book_job: each crew two a day (8 AM and 1 PM for the first, 9 AM and 2 PM for the others),
 * but none for the second and third crews at 9 AM on Monday, so the first crew's Monday 8 AM job
 * can be given to the second.
 */
async function ownerWithAWeek(tag: string): Promise<Owner> {
  const email = `board-${tag}@example.com`;
  const name = `Board Maids ${tag}`;
  const { apiKey: key } = await createBusiness(hosts().t.db, { name, timezone: ZONE, service_zips: ['10001'], weekly_hours: EVERY_DAY, owner_email: email });
  for (const crew of ['Crew Blue', 'Crew Green']) await call(key, 'add_crew', { name: crew });
  const crews = (await call<{ crews: { crew_id: string; name: string }[] }>(key, 'my_business')).crews;
  const today = localDate(new Date(), ZONE);
  const week = addDays(today, 8 - isoWeekday(today));
  let n = 0;
  for (const [c, crew] of crews.entries()) {
    for (let d = 0; d < 7; d += 1) {
      for (const hour of c === 0 ? [8, 13] : [9, 14]) {
        if (c > 0 && d === 0 && hour === 9) continue;
        n += 1;
        const start = `${addDays(week, d)}T${String(hour).padStart(2, '0')}:00:00`;
        await call(key, 'book_job', {
          bedrooms: 2,
          bathrooms: 1,
          start,
          crew_id: crew.crew_id,
          customer_name: `Client ${n}`,
          customer_phone: '(212) 555-0100',
          address: `${n} Grove St`,
          zip: '10001',
        });
      }
    }
  }
  expect(n).toBe(40);
  return { email, name, key, crews, week };
}

const weekJobs = async (o: Owner) =>
  (await call<{ jobs: Job[] }>(o.key, 'schedule')).jobs.filter((j) => j.start.slice(0, 10) >= o.week && j.start.slice(0, 10) < addDays(o.week, 7));

/** Where a job's block is on the page: its row's crew, its cell's day, and whether its box lies inside its cell's and under its day's heading. */
const placeOf = (page: Page, id: string) =>
  page.locator(`a[data-job="${id}"]`).evaluate((a) => {
    const td = a.closest('td')!;
    const tr = a.closest('tr')!;
    const index = [...tr.children].indexOf(td);
    const heading = a.closest('table')!.querySelectorAll('thead th')[index]!.getBoundingClientRect();
    const box = a.getBoundingClientRect();
    const cell = td.getBoundingClientRect();
    const inside = box.left >= cell.left - 1 && box.right <= cell.right + 1 && box.top >= cell.top - 1 && box.bottom <= cell.bottom + 1;
    const underHeading = box.left >= heading.left - 1 && box.right <= heading.right + 1;
    return { crew: tr.dataset.crew, day: td.dataset.day, inside, underHeading, visible: box.width > 0 && box.height > 0 };
  });

/** Every job of the week in its crew's row and its day's column, drawn there, as `schedule` answers. */
async function everyJobPlaced(page: Page, jobs: Job[]) {
  const places = await Promise.all(jobs.map(async (j) => ({ id: j.booking_id, ...(await placeOf(page, j.booking_id)) })));
  const expected = jobs.map((j) => ({ id: j.booking_id, crew: j.crew_id, day: j.start.slice(0, 10), inside: true, underHeading: true, visible: true }));
  expect(places).toEqual(expected);
  expect(await page.locator('a[data-job]').count()).toBe(jobs.length);
}

const openBoard = async (page: Page, day: string) => {
  await page.goto(`${hosts().pro}/dashboard/board?date=${day}`);
  await page.getByRole('heading', { name: 'Board', level: 1 }).waitFor();
};

/** Gives the first crew's Monday 8 AM job to the second crew, from its block. */
async function changeCrewFromTheBoard(o: { page: Page; audit: Audit }, owner: Owner, job: Job) {
  const { page } = o;
  const blue = owner.crews[1]!;
  await page.locator(`a[data-job="${job.booking_id}"]`).click();
  await page.getByRole('heading', { name: `Job for ${job.customer.name}`, level: 1 }).waitFor();
  await check(o, 'job page');
  await page.getByRole('link', { name: 'Change crew', exact: true }).click();
  await page.getByLabel('Give the job to').selectOption({ label: blue.name });
  await page.getByRole('button', { name: 'Give the job to this crew' }).click();
  await doneSays(page, new RegExp(`^Gave ${job.customer.name}'s job on .* to ${blue.name}`));
  await openBoard(page, owner.week);
  for (let i = 0; i < 2; i += 1) {
    expect(await placeOf(page, job.booking_id)).toMatchObject({ crew: blue.crew_id, day: owner.week, inside: true });
    await reloadAsAPerson(page);
  }
  const now = (await weekJobs(owner)).find((j) => j.booking_id === job.booking_id)!;
  expect(now.crew_id).toBe(blue.crew_id);
}

/** Moves a job from its block to the first time its move page offers; the board shows it there. */
async function moveFromTheBoard(o: { page: Page; audit: Audit }, owner: Owner, job: Job) {
  const { page } = o;
  await openBoard(page, owner.week);
  await page.locator(`a[data-job="${job.booking_id}"]`).click();
  await page.getByRole('link', { name: 'Move', exact: true }).click();
  const start = await page.locator('input[name="start"]').first().inputValue();
  await page.locator('input[name="start"]').first().check();
  await page.getByRole('button', { name: 'Next: check the move' }).click();
  await page.getByRole('button', { name: 'Move this job' }).click();
  await doneSays(page, new RegExp(`^Moved ${job.customer.name}'s job from `));
  const moved = (await call<{ jobs: Job[] }>(owner.key, 'schedule')).jobs.find((j) => j.booking_id === job.booking_id)!;
  expect(moved.start.slice(0, 16)).toBe(start.slice(0, 16));
  await openBoard(page, moved.start.slice(0, 10));
  for (let i = 0; i < 2; i += 1) {
    expect(await placeOf(page, job.booking_id)).toMatchObject({ crew: moved.crew_id, day: moved.start.slice(0, 10), inside: true });
    await reloadAsAPerson(page);
  }
}

/** Every request a page makes, so a test can say none left the two hosts. */
const requestsOf = (page: Page): string[] => {
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  return urls;
};
const elsewhere = (urls: string[]) => urls.filter((u) => !u.startsWith(`${hosts().pro}/`) && !u.startsWith(`${hosts().book}/`) && !u.startsWith('data:'));

maybe('the dispatch board in a real browser', () => {
  beforeAll(async () => {
    h = await startPageHosts('board', (found as { path: string }).path);
    mkdirSync(SHOTS, { recursive: true });
  }, 120_000);
  afterAll(() => h?.close());

  it('places every job by crew and day at 1280 px, reads as a list at 375 px, and a move and a crew change from it land and survive a reload', async () => {
    await auditAtBothWidths(hosts().browser, async (page, width, audit) => {
      const o = { page, audit };
      const urls = requestsOf(page);
      const owner = await ownerWithAWeek(String(width));
      await signInToDashboard(page, siteOf(hosts()), owner.email, owner.name);
      const hint = page.getByRole('link', { name: 'Open the board: this week by crew' });
      expect(await hint.isVisible()).toBe(width >= 1024);
      expect(await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link').first().textContent()).toBe('Board');
      await openBoard(page, owner.week);
      await check(o, 'board');
      await page.screenshot({ path: `${SHOTS}/board-${width}.png`, fullPage: true });
      const jobs = await weekJobs(owner);
      expect(jobs).toHaveLength(40);
      if (width === 1280) {
        await everyJobPlaced(page, jobs);
        const [first] = jobs.filter((j) => j.crew_id === owner.crews[0]!.crew_id);
        await changeCrewFromTheBoard(o, owner, first!);
        await moveFromTheBoard(
          o,
          owner,
          jobs.find((j) => j.crew_id === owner.crews[2]!.crew_id)!,
        );
      } else {
        // A phone: no grid, the page no wider than the screen, each job a line under its crew and day.
        expect(await page.locator('table.board thead').isVisible()).toBe(false);
        expect(await page.locator('html').evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(375);
        for (const j of jobs.slice(0, 5)) {
          expect(await placeOf(page, j.booking_id)).toMatchObject({ crew: j.crew_id, day: j.start.slice(0, 10), inside: true, visible: true });
        }
        await page.locator(`a[data-job="${jobs[0]!.booking_id}"]`).click();
        await page.getByRole('heading', { name: `Job for ${jobs[0]!.customer.name}`, level: 1 }).waitFor();
        await check(o, 'job page');
      }
      expect(elsewhere(urls)).toEqual([]);
    });
  });

  it('renders the board with JavaScript off: every job in its crew’s row and day, each a link to its page', async () => {
    const context = await hosts().browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      const urls = requestsOf(page);
      const owner = await ownerWithAWeek('no-script');
      await signInToDashboard(page, siteOf(hosts()), owner.email, owner.name);
      await openBoard(page, owner.week);
      const jobs = await weekJobs(owner);
      for (const j of jobs)
        expect(await page.locator(`tr[data-crew="${j.crew_id}"] td[data-day="${j.start.slice(0, 10)}"] a[data-job="${j.booking_id}"]`).count()).toBe(1);
      expect(await page.locator('a[data-job]').count()).toBe(40);
      await page.getByRole('link', { name: 'Next week' }).click();
      await page.getByText(`Jobs by crew from`).waitFor();
      expect(await page.locator('a[data-job]').count()).toBe(0);
      await page.getByLabel('Go to the week of').fill(addDays(owner.week, 3));
      await page.getByRole('button', { name: 'Show that week' }).click();
      await page.locator('a[data-job]').first().waitFor();
      expect(await page.locator('a[data-job]').count()).toBe(40);
      await page.locator(`a[data-job="${jobs[0]!.booking_id}"]`).click();
      await page.getByRole('heading', { name: `Job for ${jobs[0]!.customer.name}`, level: 1 }).waitFor();
      expect(elsewhere(urls)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
