import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { DEFAULT_WEEKLY_HOURS, addDays, isoWeekday, localDate, type OpenDay } from '@frontdesk/domain';
import { createBusiness } from '@frontdesk/use-cases';
import { ensureChromium } from './browser';
import { proCall, siteOf, startPageHosts, type PageHosts } from './page-hosts';
import { auditAtBothWidths, check, doneSays, reloadAsAPerson, signInToDashboard, type Audit } from './page-flows';

// A weekly client's recurring plan run from the dashboard in a real browser, at a phone's width
// and a desk's: from a visit, and from the client's page (found by part of a phone number), to
// its plan's page, the visit moved with every later one, then the plan ended from its page. Each page axe-clean and in people's words; a reload after each form
// repeats nothing. Screenshots go to SHOTS_DIR (default /tmp/shots).
jest.setTimeout(300_000);

const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the recurring plan page tests: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots';
const ZONE = 'America/New_York';

let h: PageHosts | undefined;
const hosts = () => h!;
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

const call = <T>(path: string, key: string, body?: unknown) => proCall<T>(hosts(), key, path, body);

interface Visit {
  booking_id: string;
  start: string;
  label: string;
}

/** The 9:00 start of the first Monday to Thursday at least three days out: its plan's visits can all move a day later. */
async function nineOnAWeekday(key: string): Promise<string> {
  const from = addDays(localDate(new Date(), ZONE), 3);
  const { open_times: days } = await call<{ open_times: OpenDay[] }>(`open_times?bedrooms=2&bathrooms=1&date=${from}&days=7`, key);
  const starts = days.flatMap((d) => d.starts).filter((s) => isoWeekday(s.slice(0, 10)) <= 4 && s.slice(11, 16) === '09:00');
  return starts[0]!;
}

/** The live jobs of one customer, as the business's schedule lists them. */
async function jobsOf(key: string, customer: string): Promise<string[]> {
  const { jobs } = await call<{ jobs: { start: string; customer: { name: string } }[] }>('schedule', key);
  return jobs.filter((j) => j.customer.name === customer).map((j) => j.start);
}

async function planFlow(o: { page: Page; width: number; audit: Audit }) {
  const { page, width } = o;
  const email = `plans${width}@plans.example`;
  const name = `Plan Maids ${width}`;
  const customer = `Wendy Weekly ${width}`;
  const { pro, apiKey: key } = await createBusiness(hosts().t.db, {
    name,
    timezone: ZONE,
    service_zips: ['10001'],
    weekly_hours: DEFAULT_WEEKLY_HOURS,
    owner_email: email,
  });
  const start = await nineOnAWeekday(key);
  const made = await call<{ series: { series_id: string; visits: Visit[] } }>('book_job', key, {
    bedrooms: 2,
    bathrooms: 1,
    start,
    frequency: 'weekly',
    customer_name: customer,
    customer_phone: '(718) 555-0188',
    address: '8 Birch St',
    zip: '10001',
  });
  const { series_id: seriesId, visits } = made.series;
  expect(pro.id).toMatch(/^pro_/);
  await signInToDashboard(page, siteOf(hosts()), email, name);

  // A visit's page names its plan and leads to it.
  await page.goto(`${hosts().pro}/dashboard/jobs/${visits[1]!.booking_id}/move`);
  expect(await page.locator('.plan-of-job').innerText()).toContain(`Recurring plan: Every week on`);
  await page.getByRole('link', { name: 'See the plan and change it' }).click();
  await page.getByRole('heading', { name: `Recurring plan: ${customer}`, level: 1 }).waitFor();
  expect(page.url()).toBe(`${hosts().pro}/dashboard/plans/${seriesId}`);

  // The owner runs the plan from the client's page: the client found by part of their phone number.
  await page.goto(`${hosts().pro}/dashboard/clients`);
  await page.getByLabel('Find a client by name, phone, email or street').fill('555-0188');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: customer }).first().click();
  await page.getByRole('heading', { name: 'Recurring plans' }).waitFor();
  await check(o, 'client page with a plan');
  await page.getByRole('link', { name: 'Manage this plan' }).click();
  await page.getByRole('heading', { name: `Recurring plan: ${customer}`, level: 1 }).waitFor();
  expect(page.url()).toBe(`${hosts().pro}/dashboard/plans/${seriesId}`);
  expect(await page.locator('ol.plan-visits').first().locator('li').count()).toBe(visits.length);
  await check(o, 'plan page');
  await shot(page, `plan-${width}`);

  // The second visit and every later one, a day later at 10:00.
  await page.locator('ol.plan-visits').first().locator('li').nth(1).getByRole('link', { name: 'Move' }).click();
  await page.getByLabel(/^This visit and the \d+ booked after it/).check();
  const newDay = addDays(visits[1]!.start.slice(0, 10), 1);
  const to = (await page.locator('input[name="start"]').evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value))).find((s) =>
    s.startsWith(`${newDay}T10:00`),
  )!;
  await page.locator(`input[name="start"][value="${to}"]`).check();
  await check(o, 'move page of a plan visit');
  await page.getByRole('button', { name: 'Next: check the move' }).click();
  const later = visits.length - 2;
  expect(await page.locator('main').innerText()).toContain(`The ${later} visits booked after it move with it`);
  await check(o, 'move this and later, check it');
  await shot(page, `plan-move-confirm-${width}`);
  await page.getByRole('button', { name: `Move these ${later + 1} visits` }).click();
  await doneSays(page, new RegExp(`The ${later} later visits of the series moved with it, keeping its rhythm\\.$`));
  expect(page.url()).toContain(`/dashboard/plans/${seriesId}?done=`);
  const moved = await jobsOf(key, customer);
  expect(moved).toHaveLength(visits.length);
  expect(moved.slice(1).every((s, i) => s.slice(0, 10) === addDays(visits[i + 1]!.start.slice(0, 10), 1) && s.slice(11, 16) === '10:00')).toBe(true);
  await check(o, 'plan page after moving this and later');

  // End the plan from the second visit on.
  await page.locator('#f-end-from').selectOption(visits[1]!.booking_id);
  await page.getByRole('button', { name: 'Next: check the end' }).click();
  const ending = await page.locator('main').innerText();
  expect(ending).toContain(`and the ${later} booked after it are cancelled (no fee), and no more visits are booked.`);
  expect(ending).toContain(`We do not email or text ${customer} about this: call them at (718) 555-0188 to let them know.`);
  await check(o, 'end the plan, check it');
  await shot(page, `plan-end-confirm-${width}`);
  await page.getByRole('button', { name: 'End the plan' }).click();
  await doneSays(page, new RegExp(`^Ended ${customer}'s plan: ${later + 1} visits cancelled, no fee, and no more will be booked\\.`));
  expect(await page.locator('main').innerText()).toContain('This plan has ended: no more visits will be booked.');
  expect(await jobsOf(key, customer)).toEqual([visits[0]!.start]);
  await reloadAsAPerson(page);
  expect(await jobsOf(key, customer)).toEqual([visits[0]!.start]);
  await check(o, 'plan page after its end');
  await shot(page, `plan-ended-${width}`);
  // Back on the client's page, the plan reads as ended.
  await page.goto(`${hosts().pro}/dashboard/clients?q=555-0188`);
  await page.getByRole('link', { name: customer }).first().click();
  expect(await page.locator('section[aria-labelledby="plans"]').innerText()).toMatch(/plan:\s+ended/);
  await shot(page, `client-${width}`);
}

maybe('a recurring plan run from the dashboard, in a real browser', () => {
  beforeAll(async () => {
    h = await startPageHosts('plans', (found as { path: string }).path);
    mkdirSync(SHOTS, { recursive: true });
  }, 120_000);
  afterAll(() => h?.close());

  it('moves a weekly plan "this and later" and then ends it from its page, each surviving a reload', async () => {
    await auditAtBothWidths(hosts().browser, (page, width, audit) => planFlow({ page, width, audit }));
  });
});
