import { randomBytes } from 'node:crypto';
import { createDatabase, dropDatabase } from '@frontdesk/db';
import { callApi, cli, startHost, type RunningService } from './helpers';
import { startsOf } from '@frontdesk/domain';

// Processes start and answer slower on a busy machine: limits that fit the work, and every wait is on readiness.
jest.setTimeout(120_000);

// Both services as their own processes on one database, set up with the ops CLI, driven
// over real HTTP: a customer's booking must reach the pro with nothing sent between them.
const admin = () => process.env.FD_TEST_ADMIN_URL!;
const PUBLIC_KEY = 'fdpub_e2e_public_key';
let name: string;
let env: Record<string, string>;
const services: RunningService[] = [];

const call = callApi;
const start = (kind: 'pro-desk' | 'booking') => startHost(kind, env, services);

type Json = Record<string, any>;
let proKey: string;
let proId: string;
beforeAll(async () => {
  name = `fd_e2e_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(admin(), name);
  env = { DATABASE_URL: url, PUBLIC_SHARED_KEY: PUBLIC_KEY };
  expect(cli(['migrate'], env).status).toBe(0);
  const pro = JSON.parse(cli(['pro', 'create', '--name', 'Harbor Cleaning', '--timezone', 'America/New_York', '--zips', '10001,10002', '--json'], env).stdout);
  proKey = pro.api_key;
  proId = pro.pro_id;
  expect(
    cli(
      ['pro', 'check', '--pro', proId, '--kind', 'marketplace', '--subject', 'marketplace_3', '--rating', '4.9', '--reviews', '40', '--date', '2026-11-20'],
      env,
    ).status,
  ).toBe(0);
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  await dropDatabase(admin(), name);
});

describe('both hosts as separate processes on one database', () => {
  it('a customer finds, books and cancels; the pro sees each step; the pipeline carries the fee', async () => {
    const [pro, book] = [await start('pro-desk'), await start('booking')];
    const found = await call(`${book}/find_cleaners?zip=10002&bedrooms=2&bathrooms=1`, PUBLIC_KEY);
    expect(found.status).toBe(200);
    expect(found.body.cleaners).toHaveLength(1);
    const cleaner = found.body.cleaners[0];
    expect(cleaner).toMatchObject({ cleaner_id: proId, name: 'Harbor Cleaning', total: 125 });
    expect(cleaner.checks[0].summary).toBe('On 2026-11-20 a profile on marketplace_3 was found, rated 4.9 of 5 from 40 reviews.');
    const first = cleaner.next_open_times[0];
    const later = await call(`${book}/available_times?cleaner_id=${proId}&bedrooms=2&bathrooms=1&days=7`, PUBLIC_KEY);
    const second = { start: startsOf(later.body.open_times).find((t) => t.slice(0, 10) !== first.start.slice(0, 10))! };

    const who = { 'X-Client-Name': 'Claude', 'X-User-Name': 'Dana Park', 'X-User-Email': 'dana@example.com' };
    const keep = await call(
      `${book}/book_cleaning`,
      PUBLIC_KEY,
      { cleaner_id: proId, start: first.start, bedrooms: 2, bathrooms: 1, address: '40 Pier Rd', zip: '10002', expected_total: cleaner.total },
      who,
    );
    expect(keep.status).toBe(200);
    const drop = await call(
      `${book}/book_cleaning`,
      PUBLIC_KEY,
      { cleaner_id: proId, start: second.start, bedrooms: 2, bathrooms: 1, address: '40 Pier Rd', zip: '10002' },
      who,
    );
    expect(drop.status).toBe(200);

    const schedule = await call(`${pro}/schedule`, proKey);
    expect(schedule.body.jobs.map((j: Json) => j.booking_id).sort()).toEqual([keep.body.booking_id, drop.body.booking_id].sort());
    expect(schedule.body.notifications.map((n: Json) => n.message)).toEqual([
      expect.stringMatching(/^New booking by Claude through the booking service: Dana Park/),
      expect.stringMatching(/^New booking by Claude through the booking service: Dana Park/),
    ]);
    const created = await call(`${pro}/updates?since=0`, proKey);
    expect(created.body.events.map((e: Json) => [e.kind, e.booking_id])).toEqual([
      ['booking.created', keep.body.booking_id],
      ['booking.created', drop.body.booking_id],
    ]);

    const cancelled = await call(`${book}/cancel_booking`, PUBLIC_KEY, { manage_token: drop.body.manage_token });
    expect(cancelled.body).toMatchObject({ status: 'cancelled' });
    const after = await call(`${pro}/updates?since=${created.body.cursor}`, proKey);
    expect(after.body.events).toMatchObject([{ kind: 'booking.cancelled', cancelled_by: 'customer', booking_id: drop.body.booking_id }]);
    expect((await call(`${pro}/schedule`, proKey)).body.jobs.map((j: Json) => j.booking_id)).toEqual([keep.body.booking_id]);

    const pipeline = await call(`${pro}/pipeline`, proKey);
    expect(pipeline.body.customers_brought_by_service).toMatchObject({ bookings: 1, cancelled: 1, value: 125, fees_due: 5 });
  });

  it('the same slot raced from both hosts, two instances of each, leaves exactly one booking', async () => {
    const pros = [await start('pro-desk'), await start('pro-desk')];
    const books = [await start('booking'), await start('booking')];
    const open = await call(`${books[0]}/available_times?cleaner_id=${proId}&bedrooms=3&bathrooms=2&days=7`, PUBLIC_KEY);
    const slot = startsOf(open.body.open_times).at(-1)!;
    const requests = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? call(`${pros[(i / 2) % 2]}/book_job`, proKey, {
            bedrooms: 3,
            bathrooms: 2,
            start: slot,
            customer_name: `Pro ${i}`,
            customer_phone: '212 555 0100',
            address: '1 Main St',
            zip: '10001',
          })
        : call(`${books[((i - 1) / 2) % 2]}/book_cleaning`, PUBLIC_KEY, {
            cleaner_id: proId,
            start: slot,
            bedrooms: 3,
            bathrooms: 2,
            customer_name: `Customer ${i}`,
            customer_phone: '212 555 0101',
            address: '2 Main St',
            zip: '10001',
          }),
    );
    const results = await Promise.all(requests);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) {
      expect(loser.status).toBe(400);
      expect(loser.body.error).toMatch(/was just taken by another booking/);
    }
    const schedule = await call(`${pros[1]}/schedule`, proKey);
    expect(schedule.body.jobs.filter((j: Json) => j.start === slot)).toHaveLength(1);
  });
});
