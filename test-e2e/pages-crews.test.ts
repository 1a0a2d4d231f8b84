import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { signInCodeSentTo, type TestDatabase } from '@frontdesk/db/testing';
import { ensureChromium } from './browser';
import { startPageHosts, type PageHosts } from './page-hosts';
import { auditAtBothWidths, bookOnThePage, check, doneSays, signInToDashboard, signUp, type Audit, type Site } from './page-flows';
import { addDays, localDate, startsOf } from '@frontdesk/domain';

// A business with several crews on the owner's dashboard, in a real browser at a phone's width
// and a desk's: a crew added (once refused), its own hours (once refused), taking no new jobs
// and taking them again, its time off, the day and week of one crew, a job given to another
// crew, and a customer's booking on the booking page showing under its crew. Every page is
// axe-clean and in people's words; a reload after each form repeats nothing.
jest.setTimeout(300_000);

const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the crews page tests: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

let t: TestDatabase;
let browser: Browser;
let hosts: PageHosts | undefined;
let book = '';
let pro = '';

const site = (): Site => ({ pro, book, codeSentTo: (email) => signInCodeSentTo(t.db, email) });

interface Owner {
  page: Page;
  key: string;
  audit: Audit;
  width: number;
  name: string;
}

interface CrewShown {
  crew_id: string;
  name: string;
  active: boolean;
  own_hours: boolean;
  working_hours: Record<string, string[]>;
  upcoming_jobs: number;
}

const api = async <T>(o: Owner, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
  const res = await fetch(`${pro}/api/v1/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${o.key}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as T };
};
const crews = async (o: Owner) => (await api<{ crews: CrewShown[] }>(o, 'my_business')).body.crews;

async function addCrew(o: Owner, crewName: string) {
  const { page } = o;
  await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Crews', exact: true }).click();
  await page.getByRole('heading', { name: 'Crews', level: 1 }).waitFor();
  expect(await page.locator('li.crew').count()).toBe(1);
  await check(o, '/dashboard/crews');

  // The first crew is named after the business: the same name again is refused, as typed.
  await page.getByLabel('Name of the new crew').fill(o.name.toLowerCase());
  await page.getByRole('button', { name: 'Add this crew' }).click();
  await page.getByRole('alert').waitFor();
  expect(await page.getByRole('alert').textContent()).toMatch(/already has a crew named/);
  expect(await page.getByLabel('Name of the new crew').inputValue()).toBe(o.name.toLowerCase());
  await check(o, 'add a crew refused');

  await page.getByLabel('Name of the new crew').fill(crewName);
  await page.getByRole('button', { name: 'Add this crew' }).click();
  await page.getByRole('heading', { name: crewName, level: 1 }).waitFor();
  await doneSays(o.page, `Added ${crewName}: it takes jobs from now on, and open times count it.`);
  await check(o, 'a crew added');
  expect((await crews(o)).map((c) => c.name)).toEqual([o.name, crewName]);
}

async function crewHours(o: Owner, crewName: string) {
  const { page } = o;
  await page.getByLabel('Monday').fill('25:00-26:00');
  await page.getByRole('button', { name: 'Save its own hours' }).click();
  await page.getByRole('alert').first().waitFor();
  expect(await page.getByLabel('Monday').inputValue()).toBe('25:00-26:00');
  expect(await page.getByLabel('Monday').getAttribute('aria-invalid')).toBe('true');
  await check(o, 'crew hours refused');

  await page.getByLabel('Monday').fill('09:00-13:00');
  await page.getByLabel('Saturday').fill('');
  await page.getByRole('button', { name: 'Save its own hours' }).click();
  await doneSays(o.page, `Saved ${crewName}'s own working hours: its open times follow them now.`);
  await check(o, 'crew hours saved');
  const b = (await crews(o)).find((c) => c.name === crewName)!;
  expect([b.own_hours, b.working_hours.monday, b.working_hours.saturday]).toEqual([true, ['09:00-13:00'], []]);

  await page.getByRole('button', { name: "Go back to the business's hours" }).click();
  await doneSays(o.page, `${crewName} works the business's hours again.`);
  expect((await crews(o)).find((c) => c.name === crewName)!.own_hours).toBe(false);

  await page.getByLabel('Tuesday').fill('10:00-16:00');
  await page.getByRole('button', { name: 'Save its own hours' }).click();
  await doneSays(o.page, /own working hours/);
}

async function deactivateAndBack(o: Owner, crewName: string) {
  const { page } = o;
  await page.getByRole('button', { name: 'Take no new jobs' }).click();
  await doneSays(o.page, `Saved ${crewName}: it takes no new jobs.`);
  await check(o, 'crew takes no new jobs');
  expect((await crews(o)).find((c) => c.name === crewName)!.active).toBe(false);
  await page.getByRole('button', { name: 'Take jobs again' }).click();
  await doneSays(o.page, `Saved ${crewName}.`);
  expect((await crews(o)).find((c) => c.name === crewName)!.active).toBe(true);
  if (o.width === 375) {
    mkdirSync('/tmp/shots', { recursive: true });
    await page.screenshot({ path: '/tmp/shots/dashboard-crew-375.png', fullPage: true });
  }

  // Days still to come on any date the suite runs (time off is refused once over).
  const firstOff = addDays(localDate(new Date(), 'America/New_York'), 90);
  await page.getByLabel('First day off').fill(firstOff);
  await page.getByLabel('Last day off').fill(addDays(firstOff, 1));
  await page.getByRole('button', { name: 'Take these days off' }).click();
  await doneSays(o.page, /Time off saved for/);
  await check(o, 'crew time off');
  const off = (await api<{ time_off: { crew_name: string | null }[] }>(o, 'my_business')).body.time_off;
  expect(off.map((x) => x.crew_name)).toEqual([crewName]);
}

/** Two jobs at one start, one per crew; the day and week of each crew shows its own. */
async function dayOfOneCrew(o: Owner, crewName: string) {
  const { page } = o;
  const all = await crews(o);
  const [first, second] = [all[0]!, all.find((c) => c.name === crewName)!];
  const starts = startsOf(
    (await api<{ open_times: { starts: string[] }[] }>(o, `open_times?bedrooms=2&bathrooms=1&days=14&crew_id=${second.crew_id}`)).body.open_times,
  );
  const start = starts[2]!;
  const job = (customer: string, crew: CrewShown) =>
    api<{ booking_id: string; crew_name: string }>(o, 'book_job', {
      start,
      bedrooms: 2,
      bathrooms: 1,
      customer_name: customer,
      customer_phone: '(718) 555-0142',
      address: '5 Oak St',
      zip: '10001',
      crew_id: crew.crew_id,
    });
  const a = await job(`Ann First ${o.width}`, first);
  const b = await job(`Bea Second ${o.width}`, second);
  expect([a.status, a.body.crew_name, b.status, b.body.crew_name]).toEqual([200, first.name, 200, crewName]);

  await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Schedule', exact: true }).click();
  const card = (name: string) => page.locator('article.job', { hasText: name });
  expect(await card(`Ann First ${o.width}`).textContent()).toContain(`Crew: ${first.name}`);
  expect(await card(`Bea Second ${o.width}`).textContent()).toContain(`Crew: ${crewName}`);
  await check(o, 'schedule of every crew');

  await page.getByLabel('Crew').selectOption({ label: crewName });
  await page.getByRole('button', { name: 'Show' }).click();
  await page.getByRole('heading', { name: `Schedule: ${crewName}`, level: 1 }).waitFor();
  expect(await card(`Bea Second ${o.width}`).count()).toBe(1);
  expect(await card(`Ann First ${o.width}`).count()).toBe(0);
  await check(o, 'schedule of one crew');
  if (o.width === 375) await page.screenshot({ path: '/tmp/shots/dashboard-schedule-crew-375.png', fullPage: true });
  await page.goto(`${pro}/dashboard?crew=${second.crew_id}`);
  expect(await page.getByText(`Showing only ${crewName}'s jobs.`).count()).toBe(1);
  await check(o, 'today of one crew');

  // Giving Bea's job to the first crew is refused: Ann's job is at the same time.
  await page.goto(`${pro}/dashboard/schedule`);
  await card(`Bea Second ${o.width}`).getByRole('link', { name: 'Change crew' }).click();
  await check(o, 'change crew');
  await page.getByLabel('Give the job to').selectOption({ label: first.name });
  await page.getByRole('button', { name: 'Give the job to this crew' }).click();
  await page.getByRole('alert').waitFor();
  expect(await page.getByRole('alert').textContent()).toMatch(new RegExp(`^${first.name} cannot take this job: .* Nothing was changed\\.$`));
  await check(o, 'change crew refused');
  // With Ann's job cancelled, the first crew is free then and takes Bea's.
  await api(o, 'cancel_job', { booking_id: a.body.booking_id });
  await page.getByRole('button', { name: 'Give the job to this crew' }).click();
  await doneSays(o.page, new RegExp(`^Gave Bea Second ${o.width}'s job on .* to ${first.name} \\(it was ${crewName}'s\\)`));
  const sched = (await api<{ jobs: { crew_name: string }[] }>(o, `schedule?crew_id=${first.crew_id}`)).body.jobs;
  expect(sched.map((j) => j.crew_name)).toEqual([first.name]);
}

/** A customer books on the booking page: the job shows on the dashboard under the crew it went to. */
async function customerBooking(o: Owner, proId: string, email: string) {
  const { page } = o;
  await bookOnThePage(page, site(), proId, { email });
  const jobs = (await api<{ jobs: { customer: { name: string }; crew_name: string }[] }>(o, 'schedule')).body.jobs;
  const booked = jobs.find((j) => j.customer.name === 'Axe Person')!;
  expect(booked.crew_name).toBeTruthy();
  await page.goto(`${pro}/dashboard/schedule`);
  expect(await page.locator('article.job', { hasText: 'Axe Person' }).textContent()).toContain(`Crew: ${booked.crew_name}`);
  await check(o, 'schedule with a customer booking');
}

maybe('crews on the owner’s dashboard in a real browser', () => {
  beforeAll(async () => {
    hosts = await startPageHosts('crews', (found as { path: string }).path);
    ({ t, pro, book, browser } = hosts);
  }, 120_000);
  afterAll(() => hosts?.close());

  it('adds a crew, sets its hours, takes it off and back on, shows one crew’s day, and a customer’s booking under its crew, at 375 and 1280 px', async () => {
    await auditAtBothWidths(browser, async (page, width, audit) => {
      const email = `crews${width}@dash.example`;
      const name = `Crews ${width}`;
      const key = await signUp(page, site(), email, name);
      const o: Owner = { page, key, audit, width, name };
      const proId = (await api<{ pro_id: string }>(o, 'my_business')).body.pro_id;
      await signInToDashboard(page, site(), email, name);
      const crewName = `Second Crew ${width}`;
      await addCrew(o, crewName);
      await crewHours(o, crewName);
      await deactivateAndBack(o, crewName);
      await dayOfOneCrew(o, crewName);
      await customerBooking(o, proId, `customer${width}@crews.example`);
    });
  });
});
