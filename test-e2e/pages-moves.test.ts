import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { DEFAULT_WEEKLY_HOURS, addDays, formatDay, formatUsd, fromUsd, localDate, wallTimeToInstant, type OpenDay } from '@frontdesk/domain';
import { createBusiness } from '@frontdesk/use-cases';
import { ensureChromium } from './browser';
import { siteOf, startPageHosts, type PageHosts } from './page-hosts';
import { auditAtBothWidths, check, doneSays, signInToDashboard, type Audit } from './page-flows';

// Moving a job, a series after "cancel this and all later visits", and the month's numbers, in
// a real browser at a phone's width and a desk's: the customer's manage and move pages on the
// book host, the owner's move page and Month page on the dashboard. Every page axe-clean and in
// people's words; a reload after each form that went through repeats nothing. Screenshots go
// to SHOTS_DIR (default /tmp/shots).
jest.setTimeout(300_000);

const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the move and month page tests: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots';
const ZONE = 'America/New_York';
const PUBLIC = 'fdpub_moves_public_key';

let h: PageHosts | undefined;
const hosts = () => h!;
const site = () => siteOf(hosts());
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
const today = () => localDate(new Date(), ZONE);

/** A business serving 10001 on the default hours; its key, and its owner's address when given. */
async function shop(name: string, ownerEmail?: string) {
  const { pro: made, apiKey } = await createBusiness(hosts().t.db, {
    name,
    timezone: ZONE,
    service_zips: ['10001'],
    weekly_hours: DEFAULT_WEEKLY_HOURS,
    ...(ownerEmail ? { owner_email: ownerEmail } : {}),
  });
  return { id: made.id, key: apiKey };
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

/** An operation of the business (its key) or of a customer (the shared key). */
const proCall = <T>(path: string, key: string, body?: unknown) => call<T>(hosts().pro, path, key, body);
const bookCall = <T>(path: string, body?: unknown) => call<T>(hosts().book, path, PUBLIC, body);

/** The starts of the first day from `from` with open times for a 2 bd / 1 ba job, as the book host lists them. */
async function firstOpenDayFrom(cleaner: string, from: string): Promise<string[]> {
  const times = await bookCall<{ open_times: OpenDay[] }>(`available_times?cleaner_id=${cleaner}&bedrooms=2&bathrooms=1&date=${from}&days=7`);
  return times.open_times[0]!.starts;
}

interface Booked {
  manage_token: string;
  booking_id: string;
  series: { visits: { booking_id: string; start: string; label: string }[] } | null;
}
const bookCleaning = (cleaner: string, start: string, over: Record<string, unknown> = {}) =>
  bookCall<Booked>('book_cleaning', {
    cleaner_id: cleaner,
    start,
    bedrooms: 2,
    bathrooms: 1,
    customer_name: 'Rosa Diaz',
    customer_email: 'rosa@example.com',
    address: '9 Elm St',
    zip: '10001',
    ...over,
  });

/** The start values the move page offers, and their days. */
const offered = async (page: Page) => page.locator('input[name="start"]').evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value));
const daysOf = (starts: string[]) => [...new Set(starts.map((s) => s.slice(0, 10)))];
const startOfVisit = async (id: string) =>
  (await hosts().t.db.selectFrom('bookings').select('starts_at').where('id', '=', id).executeTakeFirstOrThrow()).starts_at;

/** A start's label as a pattern: a page names the year of a day in another year than today's, an answer may not. */
const labelled = (label: string) => label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/^(\w{3}, \w{3} \d+), /, '$1,(?: \\d{4},)? ');
const saying = (text: string, ...labels: string[]) =>
  new RegExp(labels.reduce((pattern, label) => pattern.replace('%', () => labelled(label)), text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));

interface Walker {
  page: Page;
  audit: Audit;
  width: number;
}

/** The customer's move page for the second visit of a weekly series three weeks out. */
async function customerMoves(o: Walker) {
  const { page, width } = o;
  const cleaner = await shop(`Around Maids ${width}`);
  const firstDay = await firstOpenDayFrom(cleaner.id, addDays(today(), 21));
  const series = await bookCleaning(cleaner.id, firstDay[0]!, { frequency: 'weekly' });
  const [first, second, third] = series.series!.visits;
  const day1 = first!.start.slice(0, 10);
  const day2 = second!.start.slice(0, 10);

  await page.goto(`${hosts().book}/manage/${series.manage_token}`);
  await page.getByRole('link', { name: `Move the visit on ${second!.label}` }).click();
  await page.getByRole('heading', { name: 'Pick a new time' }).waitFor();
  // The week before and the week after the visit's own day: from the first visit's day to the third's.
  expect(await page.locator('#days-shown').innerText()).toBe(
    `Open times from ${formatDay(day1)} to ${formatDay(addDays(day2, 7))}: the week before and the week after ${formatDay(day2)}.`,
  );
  const around = daysOf(await offered(page));
  expect(around.every((d) => d >= day1 && d <= addDays(day2, 7))).toBe(true);
  expect(around.some((d) => d > day2) && around.some((d) => d < day2)).toBe(true);
  expect(await page.locator('body').innerText()).toMatch(saying('It stays between your visits of % and %.', first!.label, third!.label));
  await check(o, 'customer move page, days around the visit');
  await shot(page, `move-customer-around-${width}`);

  // A time on the day the series began, for this visit alone: refused in words, the pick kept, nothing moved.
  const onFirstDay = (await offered(page)).find((s) => s.startsWith(day1) && s !== first!.start)!;
  await page.locator(`input[name="start"][value="${onFirstDay}"]`).check();
  await page.getByRole('button', { name: 'Move only this visit' }).click();
  await page.getByRole('alert').waitFor();
  expect(await page.getByRole('alert').innerText()).toMatch(
    saying(
      `A visit of a series keeps its place in the series: it cannot move to ${formatDay(day1)}, on or before the visit of %. Pick a day after that visit.`,
      first!.label,
    ),
  );
  expect(await page.locator(`input[name="start"][value="${onFirstDay}"]`).isChecked()).toBe(true);
  await check(o, 'customer move refused: onto the first visit');
  await shot(page, `move-customer-refused-${width}`);
  expect((await startOfVisit(second!.booking_id)).toISOString()).toBe(new Date(second!.start).toISOString());

  // Later days, a link away; then earlier; then the days around the visit again.
  await page.getByRole('link', { name: /^Later days:/ }).click();
  await page.getByRole('heading', { name: 'Pick a new time' }).waitFor();
  expect(page.url()).toContain(`from=${addDays(day2, 8)}`);
  expect(daysOf(await offered(page)).every((d) => d >= addDays(day2, 8) && d <= addDays(day2, 14))).toBe(true);
  await check(o, 'customer move page, later days');
  await page.getByRole('link', { name: /^Back to the days around/ }).click();
  await page.getByRole('link', { name: /^Earlier days:/ }).click();
  await page.getByRole('heading', { name: 'Pick a new time' }).waitFor();
  const earlier = daysOf(await offered(page));
  expect(earlier.every((d) => d >= addDays(day1, -7) && d < day1)).toBe(true);
  await check(o, 'customer move page, earlier days');
  // Before the series began, even with every later visit: refused, and the week picked stays.
  await page.locator('input[name="start"]').first().check();
  await page.getByRole('button', { name: 'Move this and later visits' }).click();
  await page.getByRole('alert').waitFor();
  expect(await page.getByRole('alert').innerText()).toMatch(
    /^A visit of a series keeps its place in the series: it cannot move to .*, on or before the visit of /,
  );
  expect(daysOf(await offered(page))).toEqual(earlier);

  // A day between its neighbours: moved, said once, and a reload repeats nothing.
  await page.getByRole('link', { name: /^Back to the days around/ }).click();
  const between = (await offered(page)).find((s) => s.slice(0, 10) > day1 && s.slice(0, 10) < day2)!;
  await page.locator(`input[name="start"][value="${between}"]`).check();
  await page.getByRole('button', { name: 'Move only this visit' }).click();
  await doneSays(page, /^Moved /);
  await check(o, 'manage page after a move');
  expect((await startOfVisit(second!.booking_id)).getTime()).toBe(new Date(between).getTime());
}

/** The owner's move page for a job three weeks out, and for a visit of a series. */
async function ownerMoves(o: Walker) {
  const { page, width } = o;
  const email = `mover${width}@moves.example`;
  const name = `Mover ${width}`;
  const business = await shop(name, email);
  await signInToDashboard(page, site(), email, name);
  const dayStarts = await firstOpenDayFrom(business.id, addDays(today(), 21));
  const day = dayStarts[0]!.slice(0, 10);
  const job = { bedrooms: 2, bathrooms: 1, customer_phone: '(718) 555-0142', address: '5 Oak St', zip: '10001' };
  await proCall('book_job', business.key, { ...job, start: dayStarts[0], customer_name: `Mo Move ${width}` });

  await page.goto(`${hosts().pro}/dashboard/schedule`);
  await page
    .locator('article.job', { hasText: `Mo Move ${width}` })
    .getByRole('link', { name: 'Move' })
    .click();
  await page.locator('#days-shown').waitFor();
  expect(await page.locator('#days-shown').innerText()).toBe(
    `Open times from ${formatDay(addDays(day, -7))} to ${formatDay(addDays(day, 7))}: the week before and the week after ${formatDay(day)}.`,
  );
  const around = daysOf(await offered(page));
  expect(around.every((d) => d >= addDays(day, -7) && d <= addDays(day, 7))).toBe(true);
  expect(around.some((d) => d > day) && around.some((d) => d < day)).toBe(true);
  expect(await page.locator('input[type=radio]:checked').count()).toBe(0);
  await check(o, 'owner move page, days around the job');
  await shot(page, `move-owner-around-${width}`);

  await page.getByRole('link', { name: /^Later days:/ }).click();
  await page.locator('#days-shown').waitFor();
  expect(page.url()).toContain(`from=${addDays(day, 8)}`);
  const later = await offered(page);
  expect(daysOf(later).every((d) => d >= addDays(day, 8) && d <= addDays(day, 14))).toBe(true);
  await check(o, 'owner move page, later days');
  await shot(page, `move-owner-later-${width}`);
  await page.getByRole('link', { name: /^Earlier days:/ }).click();
  await page.locator('#days-shown').waitFor();
  expect(daysOf(await offered(page)).every((d) => d >= addDays(day, 1) && d <= addDays(day, 7))).toBe(true);
  await page.getByRole('link', { name: /^Later days:/ }).click();
  await page.locator('#days-shown').waitFor();
  await page.locator(`input[name="start"][value="${later[0]}"]`).check();
  await page.getByRole('button', { name: 'Next: check the move' }).click();
  await check(o, 'owner move, check it');
  expect(await page.getByRole('link', { name: 'Pick another time' }).getAttribute('href')).toContain(`from=${addDays(day, 8)}`);
  const checkedAt = page.url();
  await page.getByRole('button', { name: 'Move this job' }).click();
  await doneSays(page, new RegExp(`^Moved Mo Move ${width}'s job from `));
  const jobs = (await proCall<{ jobs: { customer: { name: string }; start: string }[] }>('schedule', business.key)).jobs;
  expect(jobs.find((j) => j.customer.name === `Mo Move ${width}`)!.start).toBe(later[0]);
  // Back to the check after the move: the job is there already, said at once, never "move from 9:00 AM to 9:00 AM?".
  await page.goto(checkedAt);
  expect(await page.getByRole('alert').innerText()).toMatch(/^The booking already starts at .+; nothing changed\.$/);
  expect(await page.getByRole('button', { name: 'Move this job' }).count()).toBe(0);
  await check(o, 'owner move, checked again after the move');

  // A visit of a series: the page says which days it can go to, and a day onto the visit before it is refused in the owner's words.
  const seriesDay = (await firstOpenDayFrom(business.id, addDays(today(), 35)))[0]!;
  const made = await proCall<Booked>('book_job', business.key, {
    ...job,
    start: seriesDay,
    frequency: 'weekly',
    customer_name: `Sam Series ${width}`,
  });
  const [v1, v2, v3] = made.series!.visits;
  await page.goto(`${hosts().pro}/dashboard/jobs/${v2!.booking_id}/move`);
  expect(await page.locator('main').innerText()).toMatch(
    saying('This is a visit of a series: it moves to a day after the visit of % and before the one of %, so the series keeps its order.', v1!.label, v3!.label),
  );
  const onV1 = (await offered(page)).find((s) => s.startsWith(v1!.start.slice(0, 10)) && s !== v1!.start)!;
  await page.locator(`input[name="start"][value="${onV1}"]`).check();
  await page.getByRole('button', { name: 'Next: check the move' }).click();
  await page.getByRole('button', { name: 'Move this job' }).click();
  await page.getByRole('alert').waitFor();
  expect(await page.getByRole('alert').innerText()).toMatch(
    /^A visit of a series keeps its place in the series: it cannot move to .*\. Pick a day after that visit\.$/,
  );
  await check(o, 'owner move refused: a series keeps its order');
  await shot(page, `move-owner-series-refused-${width}`);
}

/** The manage page of a weekly series after one visit is cancelled, then "this and all later visits". */
async function afterCancellingTheRest(o: Walker) {
  const { page, width } = o;
  const cleaner = await shop(`Ending Maids ${width}`);
  const series = await bookCleaning(cleaner.id, (await firstOpenDayFrom(cleaner.id, addDays(today(), 2)))[0]!, { frequency: 'weekly' });
  const visits = series.series!.visits;
  const manage = `${hosts().book}/manage/${series.manage_token}`;
  await page.goto(manage);
  await page.getByRole('link', { name: `Cancel the visit on ${visits[1]!.label}` }).click();
  await page.getByRole('button', { name: 'Cancel only this visit' }).click();
  await doneSays(page, /^Cancelled /);
  await page.getByRole('link', { name: `Cancel the visit on ${visits[3]!.label}` }).click();
  await page.getByRole('button', { name: /^Cancel these \d+ visits$/ }).click();
  await doneSays(page, /^Cancelled /);

  const headings = await page.locator('main h2').allInnerTexts();
  expect(headings).toEqual(['Still booked', 'Ended', 'The cleaning']);
  const stillBooked = await page.locator('section[aria-labelledby="still-booked"]').innerText();
  expect(stillBooked).toMatch(new RegExp(`^Still booked\\s+2 visits are still booked with Ending Maids ${width}, \\$\\d+\\.\\d\\d per visit\\.`));
  expect(await page.locator('section[aria-labelledby="still-booked"] li').allInnerTexts()).toEqual([
    expect.stringContaining(visits[0]!.label),
    expect.stringContaining(visits[2]!.label),
  ]);
  const ended = await page.locator('section[aria-labelledby="ended"]').innerText();
  expect(ended).toContain('The series has ended: no more visits will be booked.');
  expect(await page.locator('section[aria-labelledby="ended"] li').count()).toBe(visits.length - 2);
  const body = await page.locator('main').innerText();
  expect(body).not.toMatch(/repeats|The first visit/);
  await check(o, 'manage page after cancelling this and all later visits');
  await shot(page, `manage-after-cancel-later-${width}`);
}

/** The Month page of a business with two crews: one definition of a booked job, on the page and in pipeline. */
async function monthAgrees(o: Walker) {
  const { page, width } = o;
  const email = `month${width}@moves.example`;
  const name = `Month Maids ${width}`;
  const business = await shop(name, email);
  const job = { bedrooms: 2, bathrooms: 1, customer_phone: '(718) 555-0142', address: '5 Oak St', zip: '10001' };
  const vans = (await proCall<{ crew_id: string }>('add_crew', business.key, { name: `Vans ${width}` })).crew_id;
  const firstCrew = (await proCall<{ crews: { crew_id: string }[] }>('my_business', business.key)).crews[0]!.crew_id;
  // The first open start of each of several days, so no two of these jobs meet on a crew.
  const days = await proCall<{ open_times: OpenDay[] }>('open_times?bedrooms=2&bathrooms=1&days=14', business.key);
  const starts = days.open_times.map((d) => d.starts[0]!);
  const series = await proCall<Booked>('book_job', business.key, {
    ...job,
    start: starts[1],
    frequency: 'weekly',
    crew_id: firstCrew,
    customer_name: 'Sam',
  });
  await proCall('assign_job', business.key, { booking_id: series.series!.visits[1]!.booking_id, crew_id: vans });
  await proCall('cancel_job', business.key, { booking_id: series.series!.visits[2]!.booking_id });
  await proCall('book_job', business.key, { ...job, start: starts[2], crew_id: vans, customer_name: 'Vi' });
  const dropped = await proCall<Booked>('book_job', business.key, { ...job, start: starts[3], crew_id: vans, customer_name: 'Dee' });
  await proCall('cancel_job', business.key, { booking_id: dropped.booking_id });
  // A customer's booking whose start has passed (moved back in the row as time would, never before the business's midnight) and who did not show.
  const missed = await bookCleaning(business.id, starts[4]!, { customer_name: 'Max' });
  const now = Date.now();
  const midnight = wallTimeToInstant(localDate(new Date(now), ZONE), 0, ZONE)!.getTime();
  const started = Math.min(Math.max(now - 30 * 60_000, midnight), now - 1000);
  await hosts()
    .t.db.updateTable('bookings')
    .set({ starts_at: new Date(started), ends_at: new Date(now + 60 * 60_000), blocked_until: new Date(now + 60 * 60_000) })
    .where('id', '=', missed.booking_id)
    .execute();
  await proCall('report_no_show', business.key, { booking_id: missed.booking_id });
  // Leads logged this month, none booked: said of leads, apart from the jobs.
  await proCall('log_lead', business.key, { source: 'marketplace_1', lead_cost: 30 });
  await proCall('log_lead', business.key, { source: 'website', customer_first_name: 'Ana' });

  const report = await proCall<{ jobs_booked: { total: number; value: number; by_crew: { crew_name: string; jobs: number; value: number }[] } }>(
    'pipeline',
    business.key,
  );
  const { jobs_booked: jobs } = report;
  expect(jobs.total).toBe(2);
  expect(jobs.by_crew.reduce((s, c) => s + c.jobs, 0)).toBe(jobs.total);

  await signInToDashboard(page, site(), email, name);
  await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Month', exact: true }).click();
  await page.getByRole('heading', { name: 'Month', level: 1 }).waitFor();
  const usd = (v: number) => formatUsd(fromUsd(v));
  const jobsPart = await page.locator('section[aria-labelledby="jobs"]').innerText();
  expect(jobsPart).toContain(`2 jobs worth ${usd(jobs.value)}: 2 you booked, 0 booked by customers through Front Desk.`);
  expect(jobsPart).toContain('A job is one booking made this month');
  expect(jobsPart).toContain('Not counted: 1 cancelled and 1 no-show.');
  expect(await page.locator('section[aria-labelledby="leads"]').innerText()).toMatch(/2 leads, \$30\.00 spent\. None of them booked yet\.[\s\S]*Marketplace 1/);
  const rows = await page.locator('section[aria-labelledby="jobs"] table tr').allInnerTexts();
  const cells = rows.slice(1).map((r) => r.split('\t').map((c) => c.trim()));
  expect(cells).toEqual([...jobs.by_crew.map((c) => [c.crew_name, String(c.jobs), usd(c.value)]), ['All crews', '2', usd(jobs.value)]]);
  // Every amount with its cents, as on every other page.
  expect((await page.locator('main').innerText()).match(/\$\d[\d,]*(?!\.\d\d|[\d,])/g)).toBeNull();
  await check(o, '/dashboard/month');
  await shot(page, `month-${width}`);
}

maybe('moving a job, a series after its end, and the month, in a real browser', () => {
  beforeAll(async () => {
    h = await startPageHosts('moves', (found as { path: string }).path);
    mkdirSync(SHOTS, { recursive: true });
  }, 120_000);
  afterAll(() => h?.close());

  it("offers a customer's visit the days around its own date, earlier and later days a link away, and keeps a series in order", async () => {
    await auditAtBothWidths(hosts().browser, (page, width, audit) => customerMoves({ page, width, audit }));
  });

  it("offers the owner's job the days around its own date, earlier and later days a link away, and keeps a series in order", async () => {
    await auditAtBothWidths(hosts().browser, (page, width, audit) => ownerMoves({ page, width, audit }));
  });

  it('says what is still booked, then what ended, after "cancel this and all later visits"', async () => {
    await auditAtBothWidths(hosts().browser, (page, width, audit) => afterCancellingTheRest({ page, width, audit }));
  });

  it('counts the month one way: the jobs, their worth in dollars and cents, and the crews adding up to them', async () => {
    await auditAtBothWidths(hosts().browser, (page, width, audit) => monthAgrees({ page, width, audit }));
  });
});
