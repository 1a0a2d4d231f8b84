import { randomBytes } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { createDatabase, dropDatabase } from '@frontdesk/db';
import { startsOf } from '@frontdesk/domain';
import { callApi, cli, startHost, type RunningService } from './helpers';
import { startSmtpInbox } from './mail-sink';

// Two processes of each host, each running its own workers on the real clock and delivering to
// one real SMTP server: a reminder that comes due is materialized and mailed once, whichever of
// the four processes looks first, and never again on their later ticks.
jest.setTimeout(300_000);

const admin = () => process.env.FD_TEST_ADMIN_URL!;
const PUBLIC_KEY = 'fdpub_e2e_reminders_key';
const HOUR = 3_600_000;
/** The customer messages worker ticks every 30 seconds on each process. */
const TICK_MS = 30_000;
let name: string;
const services: RunningService[] = [];
let smtp: Awaited<ReturnType<typeof startSmtpInbox>>;

beforeAll(async () => {
  name = `fd_e2e_${randomBytes(4).toString('hex')}`;
  smtp = await startSmtpInbox();
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  await smtp.stop();
  await dropDatabase(admin(), name);
});

const subjectsTo = async (to: string) => Promise.all(smtp.inbox.filter((m) => m.to === to).map(async (m) => (await simpleParser(m.raw)).subject ?? ''));

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('reminders from two processes of each host', () => {
  it('mail a reminder once and its confirmation once, however many processes tick', async () => {
    const url = await createDatabase(admin(), name);
    const env = { DATABASE_URL: url, PUBLIC_SHARED_KEY: PUBLIC_KEY, SMTP_URL: smtp.url };
    expect(cli(['migrate'], env).status).toBe(0);
    const pro = JSON.parse(
      cli(['pro', 'create', '--name', 'Twice Run Cleaning', '--timezone', 'America/New_York', '--zips', '10001', '--json'], env).stdout,
    ) as { api_key: string; pro_id: string };
    const pros = [await startHost('pro-desk', env, services), await startHost('pro-desk', env, services)];
    const books = [await startHost('booking', env, services), await startHost('booking', env, services)];
    // The longest reminder there is: for any job booked at least 12 hours ahead it is due at once.
    expect((await callApi(`${pros[0]}/update_business`, pro.api_key, { customer_reminders: [168] })).status).toBe(200);

    const open = await callApi(`${books[1]}/available_times?cleaner_id=${pro.pro_id}&bedrooms=2&bathrooms=1&days=7`, PUBLIC_KEY);
    const start = startsOf(open.body.open_times).find((s) => Date.parse(s) > Date.now() + 13 * HOUR)!;
    expect(start).toBeDefined();
    const to = 'twice.run@example.com';
    const booked = await callApi(`${books[0]}/book_cleaning`, PUBLIC_KEY, {
      cleaner_id: pro.pro_id,
      start,
      bedrooms: 2,
      bathrooms: 1,
      customer_name: 'Rae Twice',
      customer_email: to,
      address: '3 Elm St',
      zip: '10001',
    });
    expect(booked.status).toBe(200);

    const reminders = async () => (await subjectsTo(to)).filter((s) => s.startsWith('Reminder: '));
    await until(async () => (await reminders()).length > 0, 4 * TICK_MS);
    // Every process ticks at least once more after the first mail went.
    await new Promise((r) => setTimeout(r, TICK_MS + 5_000));
    expect(await reminders()).toHaveLength(1);
    const subjects = await subjectsTo(to);
    expect(subjects.filter((s) => !s.startsWith('Reminder: '))).toHaveLength(1); // the confirmation, once

    // The owner's feed, read through the other process, says it went once.
    const feed = await callApi(`${pros[1]}/updates`, pro.api_key);
    const sent = (feed.body.events as { kind: string; booking_id?: string }[]).filter((e) => e.kind === 'reminder.sent');
    expect(sent).toEqual([expect.objectContaining({ booking_id: booked.body.booking_id })]);
  });
});
