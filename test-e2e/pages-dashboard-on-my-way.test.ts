import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { DEFAULT_WEEKLY_HOURS, addDays, localDate, startsOf, wallTimeToInstant, type OpenDay } from '@frontdesk/domain';
import { createBusiness } from '@frontdesk/use-cases';
import { ensureChromium } from './browser';
import { dayLeft } from './helpers';
import { proCall, siteOf, startPageHosts, type PageHosts } from './page-hosts';
import { auditAtBothWidths, check, doneSays, reloadAsAPerson, signInToDashboard, type Audit } from './page-flows';

// "On my way" on the dashboard's Today page and the morning agenda's time on the Notices
// settings page, in a real browser at a phone's width and a desk's: the button with an optional
// arrival time on today's job, a crew's own morning email on its page, the mail queued once, the job then saying when it went with no
// button left, and a reload that sends nothing more. Every page axe-clean and in people's words.
// Screenshots go to SHOTS_DIR (default /tmp/shots).
const TEST_MS = 300_000;
jest.setTimeout(TEST_MS);

const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the on-my-way page tests: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

const ZONE = 'America/New_York';
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots';

let h: PageHosts | undefined;
const hosts = () => h!;

interface Owner {
  page: Page;
  key: string;
  audit: Audit;
  width: number;
}

const card = (page: Page, text: string) => page.locator('article.job', { hasText: text });
const mailsTo = (address: string) => hosts().t.db.selectFrom('outbox').select(['subject', 'text_body']).where('to_address', '=', address).execute();

/** A job booked by the business for a customer with an email, moved to run from up to an hour ago (never before midnight) for three hours: today's, not ended. */
async function jobOfToday(o: Owner, name: string, email: string): Promise<string> {
  const starts = startsOf((await proCall<{ open_times: OpenDay[] }>(hosts(), o.key, 'open_times?bedrooms=2&bathrooms=1&days=14')).open_times);
  const booked = await proCall<{ booking_id: string }>(hosts(), o.key, 'book_job', {
    start: starts[0],
    bedrooms: 2,
    bathrooms: 1,
    customer_name: name,
    customer_email: email,
    address: '9 Elm St',
    zip: '10001',
  });
  const now = Date.now();
  const midnight = wallTimeToInstant(localDate(new Date(now), ZONE), 0, ZONE)!.getTime();
  const start = Math.max(now - 3_600_000, midnight);
  const end = Math.min(start + 3 * 3_600_000, wallTimeToInstant(addDays(localDate(new Date(now), ZONE), 1), 0, ZONE)!.getTime() - 60_000);
  await hosts()
    .t.db.updateTable('bookings')
    .set({ starts_at: new Date(start), ends_at: new Date(Math.max(end, now + 30 * 60_000)), blocked_until: new Date(Math.max(end, now + 30 * 60_000)) })
    .where('id', '=', booked.booking_id)
    .execute();
  return booked.booking_id;
}

/** The button on Today, an arrival time typed, the result said; then the time it went and no button, and a reload that sends nothing. */
async function onMyWayFromToday(o: Owner, job: { id: string; name: string; email: string }) {
  const { name, email } = job;
  const { page } = o;
  await page.goto(`${hosts().pro}/dashboard`);
  const today = card(page, name);
  expect(await today.getByRole('button', { name: 'On my way' }).count()).toBe(1);
  await check(o, '/dashboard with "on my way"');
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/dashboard-on-my-way-${o.width}.png`, fullPage: true });
  await today.getByLabel('Arriving in, minutes (optional)').fill('25');
  await today.getByRole('button', { name: 'On my way' }).click();
  await doneSays(page, new RegExp(`^Emailed ${name} that the crew is on the way \\(arriving in about 25 minutes\\)`));
  expect(new URL(page.url()).pathname).toBe('/dashboard');
  const sent = card(page, name);
  expect(await sent.textContent()).toMatch(/On my way sent at \d{1,2}:\d\d [AP]M E[SD]T/);
  expect(await sent.getByRole('button', { name: 'On my way' }).count()).toBe(0);
  await check(o, '/dashboard after "on my way"');
  await page.screenshot({ path: `${SHOTS}/dashboard-on-my-way-sent-${o.width}.png`, fullPage: true });
  await reloadAsAPerson(page);
  const mails = await mailsTo(email);
  expect(mails).toHaveLength(1);
  expect(mails[0]!.text_body).toContain('We expect to arrive in about 25 minutes.');

  // Its own page, opened again, says it went and offers nothing to send.
  await page.goto(`${hosts().pro}/dashboard/jobs/${job.id}/on-my-way`);
  expect(await page.textContent('main')).toMatch(/On my way sent at .*; a job gets it once\./);
  expect(await page.getByRole('button', { name: 'On my way' }).count()).toBe(0);
  await check(o, 'the "on my way" page of a job it went for');
  expect(await mailsTo(email)).toHaveLength(1);
}

/** The morning agenda's time on the Notices page: 7:00 to begin with, changed, kept after a reload. */
async function agendaTime(o: Owner) {
  const { page } = o;
  await page.goto(`${hosts().pro}/dashboard/settings/notices`);
  const field = page.getByLabel("Email me the day's jobs each morning at");
  expect(await field.inputValue()).toBe('07:00');
  await check(o, 'the notices settings with the morning agenda');
  await field.fill('06:30');
  await page.getByRole('button', { name: 'Save' }).click();
  await doneSays(page, 'Saved which mails you get.');
  expect(await page.getByLabel("Email me the day's jobs each morning at").inputValue()).toBe('06:30');
  expect((await proCall<{ owner_agenda: string | null }>(hosts(), o.key, 'my_business')).owner_agenda).toBe('06:30');
  await check(o, 'the notices settings after a change');
}

/** A crew's own morning email on its page: saved, shown, and on the crew as update_crew gives it. */
async function crewEmail(o: Owner) {
  const { page } = o;
  const [crew] = (await proCall<{ crews: { crew_id: string; name: string }[] }>(hosts(), o.key, 'my_business')).crews;
  await page.goto(`${hosts().pro}/dashboard/crews/${crew!.crew_id}`);
  await page.getByLabel("Crew's email for its morning jobs").fill(`crew${o.width}@dashomw.example`);
  await page.getByRole('button', { name: 'Save the email' }).click();
  await doneSays(page, `Saved: ${crew!.name} is emailed its own jobs each morning at crew${o.width}@dashomw.example.`);
  expect(await page.getByLabel("Crew's email for its morning jobs").inputValue()).toBe(`crew${o.width}@dashomw.example`);
  await check(o, "a crew's page with its morning email");
  expect((await proCall<{ crews: { email: string | null }[] }>(hosts(), o.key, 'my_business')).crews[0]!.email).toBe(`crew${o.width}@dashomw.example`);
}

maybe('"on my way" and the morning agenda on the dashboard, in a real browser', () => {
  beforeAll(async () => {
    h = await startPageHosts('dashomw', (found as { path: string }).path);
  }, 120_000);
  afterAll(() => h?.close());
  // Its jobs are today's from when they are put there until Today shows them: never across midnight.
  beforeEach(() => dayLeft(ZONE, TEST_MS), TEST_MS + 6 * 60_000);

  it('sends "on my way" once from Today and sets the agenda time, at 375 and 1280 px', async () => {
    await auditAtBothWidths(hosts().browser, async (page, width, audit) => {
      const email = `owner${width}@dashomw.example`;
      const name = `Omw ${width}`;
      const { apiKey } = await createBusiness(hosts().t.db, {
        name,
        timezone: ZONE,
        service_zips: ['10001'],
        weekly_hours: DEFAULT_WEEKLY_HOURS,
        owner_email: email,
      });
      const o: Owner = { page, key: apiKey, audit, width };
      const customer = `Wanda Way ${width}`;
      const customerEmail = `wanda${width}@dashomw.example`;
      const id = await jobOfToday(o, customer, customerEmail);
      await signInToDashboard(page, siteOf(hosts()), email, name);
      await onMyWayFromToday(o, { id, name: customer, email: customerEmail });
      await agendaTime(o);
      await crewEmail(o);
    });
  });
});
