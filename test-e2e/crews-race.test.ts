import { randomBytes } from 'node:crypto';
import { createDatabase, dropDatabase } from '@frontdesk/db';
import { callApi, cli, startHost, type RunningService } from './helpers';
import { startsOf } from '@frontdesk/domain';

// Processes start and answer slower on a busy machine: limits that fit the work, and every wait is on readiness.
jest.setTimeout(120_000);

// Capacity across processes: three crews free at one start, thirty racers for it from two
// instances of each host. PostgreSQL's per-crew exclusion constraint and the business's row
// lock must let exactly three through, one per crew.
const admin = () => process.env.FD_TEST_ADMIN_URL!;
const PUBLIC_KEY = 'fdpub_e2e_crews_key';
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
  const pro = JSON.parse(cli(['pro', 'create', '--name', 'Three Crews Cleaning', '--timezone', 'America/New_York', '--zips', '10001', '--json'], env).stdout);
  proKey = pro.api_key;
  proId = pro.pro_id;
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  await dropDatabase(admin(), name);
});

describe('crews raced from both hosts, two instances of each', () => {
  it('30 racers for one start with 3 crews free leave exactly 3 bookings, each on a different crew', async () => {
    const pros = [await start('pro-desk'), await start('pro-desk')];
    const books = [await start('booking'), await start('booking')];
    for (const crew of ['North', 'South']) expect((await call(`${pros[0]}/add_crew`, proKey, { name: crew })).status).toBe(200);
    // The other instance and the book host see the new crews at once (the change feed).
    const open = await call(`${books[1]}/available_times?cleaner_id=${proId}&bedrooms=3&bathrooms=2&days=7`, PUBLIC_KEY);
    const slot = startsOf(open.body.open_times).at(-1)!;
    const requests = Array.from({ length: 30 }, (_, i) =>
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
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(3);
    expect(new Set(won.map((r) => r.body.crew_id)).size).toBe(3);
    for (const loser of results.filter((r) => r.status !== 200)) {
      expect(loser.status).toBe(400);
      expect(loser.body.error).toMatch(/was just taken by another booking/);
    }
    const schedule = await call(`${pros[1]}/schedule`, proKey);
    const atSlot = schedule.body.jobs.filter((j: Json) => j.start === slot);
    expect(atSlot).toHaveLength(3);
    expect(new Set(atSlot.map((j: Json) => j.crew_name))).toEqual(new Set(['Three Crews Cleaning', 'North', 'South']));
    // Every host now offers that start to no one.
    const after = await call(`${books[0]}/available_times?cleaner_id=${proId}&bedrooms=3&bathrooms=2&days=7`, PUBLIC_KEY);
    expect(startsOf(after.body.open_times)).not.toContain(slot);
  });
});
