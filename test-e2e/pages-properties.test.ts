import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays, localDate } from '@frontdesk/domain';
import { AIRBNB_PRODID, CalendarServer, airbnbBlock, airbnbStay, calendar } from '@frontdesk/dev-env/ical-fixtures';
import { ensureChromium } from './browser';
import { proCall, siteOf, startPageHosts, type PageHosts } from './page-hosts';
import { auditAtBothWidths, check, doneSays, reloadAsAPerson, signInToDashboard, signUp, type Owner } from './page-flows';

// The Properties section in a real browser at a phone's width and a desk's (issue 37): a rental
// added with its Airbnb calendar (served by a local HTTP server), a refusal that keeps what was
// typed, its stays and proposed cleans on one timeline, a proposal accepted and then on the
// schedule, its times changed, and the rental removed only with its turnovers cancelled. Every
// form is followed by a reload that repeats nothing; every page is axe-clean and in people's words.
jest.setTimeout(600_000);

const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the properties page tests: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

let hosts: PageHosts | undefined;
const cal = new CalendarServer();

type Json = Record<string, any>;

const api = (o: Owner, path: string, body?: unknown): Promise<Json> => proCall<Json>(hosts!, o.key, path, body);

/** The first Tuesday to Thursday at least four days from now in New York: a working day whatever today is. */
function midweekAhead(): string {
  let day = addDays(localDate(new Date(), 'America/New_York'), 4);
  while (![2, 3, 4].includes(new Date(`${day}T12:00:00Z`).getUTCDay())) day = addDays(day, 1);
  return day;
}

/** A calendar with two guest stays a week apart, each checking out midweek, and an owner block between them. */
function houseCalendar(width: number): { url: string; checkout: string } {
  const checkout = midweekAhead();
  const body = calendar(AIRBNB_PRODID, [
    airbnbStay(`g1-${width}`, addDays(checkout, -2), checkout),
    airbnbBlock(`b-${width}`, addDays(checkout, 2), addDays(checkout, 4)),
    airbnbStay(`g2-${width}`, addDays(checkout, 5), addDays(checkout, 7)),
  ]);
  return { url: cal.serve(`/calendars/lake-${width}.ics`, { body }), checkout };
}

/** The add form refused for want of the host's phone or email, with what was typed kept; then added, its calendar read at once. */
async function addRental(o: Owner, url: string) {
  const { page } = o;
  await page.goto(`${hosts!.pro}/dashboard`);
  await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Properties', exact: true }).click();
  await page.getByRole('heading', { name: 'Properties', level: 1 }).waitFor();
  await page.getByText('No rentals yet').waitFor();
  await check(o, 'properties page');
  await page.getByLabel('Name of the property').fill('Lake cabin');
  await page.getByLabel('Street address').fill('9 Shore Rd');
  await page.getByLabel('ZIP code').fill('10001');
  await page.getByLabel('Bedrooms').fill('2');
  await page.getByLabel('Bathrooms').fill('1');
  await page.getByLabel('Pets stay there').check();
  await page.getByLabel("Host's name").fill('Hal Host');
  await page.getByLabel('Calendar addresses').fill(url);
  await page.getByLabel('Guests check out at').fill('10:00');
  await page.getByLabel('Propose each clean; I accept it here').check();
  await page.getByRole('button', { name: 'Add this rental' }).click();
  await page.getByRole('alert').getByText("Host's phone or email is required").waitFor();
  expect(await page.getByLabel('Name of the property').inputValue()).toBe('Lake cabin');
  expect(await page.getByLabel('Calendar addresses').inputValue()).toBe(url);
  expect(await page.getByLabel('Guests check out at').inputValue()).toBe('10:00');
  expect(await page.getByLabel('Pets stay there').isChecked()).toBe(true);
  expect(await page.getByLabel('Propose each clean; I accept it here').isChecked()).toBe(true);
  await check(o, 'add refused');
  await page.getByLabel("Host's email").fill('hal@example.com');
  await page.getByRole('button', { name: 'Add this rental' }).click();
  await doneSays(page, /^Added Lake cabin; its calendar is read now/);
  await page.getByRole('heading', { name: 'Lake cabin', level: 1 }).waitFor();
  expect((await api(o, 'list_properties')).properties).toHaveLength(1);
}

/** The timeline: two stays (the owner block is none), each clean proposed; the calendar read, in words. */
async function stayTimeline(o: Owner) {
  const { page } = o;
  const stays = page.locator('.stays > li');
  expect(await stays.count()).toBe(2);
  expect(await stays.nth(0).innerText()).toMatch(/Guests .* to .*\n?.*from Airbnb[\s\S]*Turnover proposed for .*10:00 AM/);
  await page
    .locator('.feeds')
    .getByText(/^Read on .*: fine, 2 stays listed\.$/)
    .waitFor();
  expect(
    await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth),
  ).toBeLessThanOrEqual(o.width);
  await page.screenshot({ path: join(tmpdir(), `property-page-${o.width}.png`), fullPage: true });
  await check(o, 'property page');
}

/** Accepting the first proposal books it, once: the reload repeats nothing, and the job is on the schedule. */
async function acceptOne(o: Owner, checkout: string) {
  const { page } = o;
  await page
    .getByRole('button', { name: /^Accept the turnover on / })
    .first()
    .click();
  await doneSays(page, /^Booked the turnover at Lake cabin for .*10:00 AM/);
  await reloadAsAPerson(page);
  const first = page.locator('.stays > li').nth(0);
  await first.getByText(/^Turnover booked: .*10:00 AM/).waitFor();
  expect(await page.getByRole('button', { name: /^Accept the turnover on / }).count()).toBe(1);
  await check(o, 'proposal accepted');
  const schedule = await api(o, 'schedule');
  expect(schedule.count).toBe(1);
  expect(schedule.jobs[0].start.slice(0, 16)).toBe(`${checkout}T10:00`);
  await first.getByRole('link', { name: 'Open the job' }).click();
  await page.getByRole('heading', { name: 'Job for Hal Host', level: 1 }).waitFor();
  await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Schedule', exact: true }).click();
  await page.getByRole('heading', { name: 'Schedule', level: 1 }).waitFor();
  await page.getByText('Hal Host').first().waitFor();
  await check(o, 'schedule with the turnover');
  await page.goBack();
  await page.goBack();
}

/** New times saved and the cleans planned again; the proposal left moves with the check-out time. */
async function changeTimes(o: Owner) {
  const { page } = o;
  await page.getByLabel('Guests check out at').fill('12:00');
  await page.getByRole('button', { name: 'Save and plan the cleans again' }).click();
  await doneSays(page, /^Saved the times, crew and planning of Lake cabin, and planned its cleans again\. Read Lake cabin's calendars\./);
  expect(await page.getByLabel('Guests check out at').inputValue()).toBe('12:00');
  await page
    .locator('.stays > li')
    .nth(1)
    .getByText(/Turnover proposed for .*12:00 PM/)
    .waitFor();
  await check(o, 'times changed');
}

/** The day of the second checkout taken off after it was proposed: accepting it books nothing and says why, with what fixes it. */
async function acceptWhenNothingFits(o: Owner, checkout: string) {
  const { page } = o;
  const day = addDays(checkout, 7);
  await api(o, 'add_time_off', { start: `${day}T00:00:00-05:00`, end: `${addDays(day, 1)}T00:00:00-05:00` });
  await page.getByRole('button', { name: /^Accept the turnover on / }).click();
  await doneSays(page, /^Nothing was booked: the turnover at Lake cabin needs you\. No crew is free/);
  const second = page.locator('.stays > li').nth(1);
  await second.getByText(/^Needs you: No crew is free for the whole clean after checkout/).waitFor();
  expect(await second.getByRole('link', { name: 'change the times or the crew' }).getAttribute('href')).toBe('#times');
  expect(await page.getByRole('button', { name: /^Accept the turnover on / }).count()).toBe(0);
  expect((await api(o, 'schedule')).count).toBe(1);
  await check(o, 'needs attention');
}

/** Removing is refused while turnovers are upcoming, in the owner's words; with the box ticked it cancels them and removes the rental. */
async function removeRental(o: Owner) {
  const { page } = o;
  await page.getByRole('link', { name: 'Remove Lake cabin' }).click();
  await page.getByRole('heading', { name: 'Remove Lake cabin?', level: 1 }).waitFor();
  await page.getByText('Lake cabin has 1 upcoming turnover.').waitFor();
  await check(o, 'remove confirmation');
  await page.getByRole('button', { name: 'Remove Lake cabin' }).click();
  await page
    .getByRole('alert')
    .getByText(/still has 1 upcoming turnover; tick “Cancel its upcoming turnovers too” to cancel it/)
    .waitFor();
  await check(o, 'remove refused');
  await page.getByLabel('Cancel its upcoming turnovers too').check();
  await page.getByRole('button', { name: 'Remove Lake cabin' }).click();
  await doneSays(page, /^Removed Lake cabin and cancelled its 1 upcoming turnover \(the host is not messaged\)\.$/);
  await page.getByText('No rentals yet').waitFor();
  expect((await api(o, 'list_properties')).properties).toEqual([]);
  expect((await api(o, 'schedule')).count).toBe(0);
}

maybe('the Properties section in a real browser', () => {
  beforeAll(async () => {
    await cal.start();
    hosts = await startPageHosts('properties', (found as { path: string }).path);
  }, 120_000);
  afterAll(async () => {
    await hosts?.close();
    await cal.stop();
  });

  it('adds a rental, shows its stays and cleans, accepts a proposal onto the schedule and removes it, at 375 and 1280 px', async () => {
    await auditAtBothWidths(hosts!.browser, async (page, width, audit) => {
      const email = `rentals${width}@dash.example`;
      const name = `Rentals ${width}`;
      const key = await signUp(page, siteOf(hosts!), email, name);
      const o: Owner = { page, key, audit, width };
      await signInToDashboard(page, siteOf(hosts!), email, name);
      const { url, checkout } = houseCalendar(width);
      await addRental(o, url);
      await stayTimeline(o);
      await acceptOne(o, checkout);
      await changeTimes(o);
      await acceptWhenNothingFits(o, checkout);
      await removeRental(o);
    });
  });
});
