import { randomBytes } from 'node:crypto';
import { createDatabase, dropDatabase } from '@frontdesk/db';
import { callApi, cli, startHost, type RunningService } from './helpers';
import { startsOf } from '@frontdesk/domain';

// Processes start and answer slower on a busy machine: limits that fit the work, and every wait is on readiness.
jest.setTimeout(120_000);

// Capacity across processes: three crews free at one start, thirty racers for it from two
// instances of each host. PostgreSQL's per-crew exclusion constraint and the business's row
// lock must let exactly three through, one per crew. Holds the same: fifty racers holding one
// start get exactly three holds (the triggers of the holds migration, under the crew's lock),
// and then no booking gets in.
const admin = () => process.env.FD_TEST_ADMIN_URL!;
const PUBLIC_KEY = 'fdpub_e2e_crews_key';
let name: string;
let env: Record<string, string>;
const services: RunningService[] = [];

const call = callApi;
const start = (kind: 'pro-desk' | 'booking') => startHost(kind, env, services);
let instances: Promise<{ pros: string[]; books: string[] }> | undefined;
/** Two instances of each host, started once for the races. */
const running = () =>
  (instances ??= (async () => ({ pros: [await start('pro-desk'), await start('pro-desk')], books: [await start('booking'), await start('booking')] }))());

type Json = Record<string, any>;
let proKey: string;
let proId: string;
/** A second business, for the holds race: three crews too, none of its time taken. */
let holdKey: string;
let holdId: string;
beforeAll(async () => {
  name = `fd_e2e_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(admin(), name);
  env = { DATABASE_URL: url, PUBLIC_SHARED_KEY: PUBLIC_KEY };
  expect(cli(['migrate'], env).status).toBe(0);
  const pro = JSON.parse(cli(['pro', 'create', '--name', 'Three Crews Cleaning', '--timezone', 'America/New_York', '--zips', '10001', '--json'], env).stdout);
  proKey = pro.api_key;
  proId = pro.pro_id;
  const holding = JSON.parse(
    cli(['pro', 'create', '--name', 'Three Crews Holding', '--timezone', 'America/New_York', '--zips', '10001', '--json'], env).stdout,
  );
  holdKey = holding.api_key;
  holdId = holding.pro_id;
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  await dropDatabase(admin(), name);
});

describe('crews raced from both hosts, two instances of each', () => {
  it('30 racers for one start with 3 crews free leave exactly 3 bookings, each on a different crew', async () => {
    const { pros, books } = await running();
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

describe('holds raced from both hosts, two instances of each', () => {
  it('50 racers holding one start with 3 crews free get exactly 3 holds, each on a different crew, and the start is taken for everyone else', async () => {
    const { pros, books } = await running();
    for (const crew of ['North', 'South']) expect((await call(`${pros[0]}/add_crew`, holdKey, { name: crew })).status).toBe(200);
    const open = await call(`${books[1]}/available_times?cleaner_id=${holdId}&bedrooms=3&bathrooms=2&days=7`, PUBLIC_KEY);
    const slot = startsOf(open.body.open_times).at(-1)!;
    const job = { bedrooms: 3, bathrooms: 2, start: slot };
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0
          ? call(`${pros[(i / 2) % 2]}/hold_time`, holdKey, job)
          : call(`${books[((i - 1) / 2) % 2]}/hold_time`, PUBLIC_KEY, { cleaner_id: holdId, ...job }, { 'X-User-Email': `racer${i}@example.com` }),
      ),
    );
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(3);
    expect(new Set(won.map((r) => r.body.crew_id)).size).toBe(3);
    for (const loser of results.filter((r) => r.status !== 200)) expect(loser.status).toBe(400);

    // Every host now offers that start to no one, and no one else books it.
    for (const host of books) {
      const after = await call(`${host}/available_times?cleaner_id=${holdId}&bedrooms=3&bathrooms=2&days=7`, PUBLIC_KEY);
      expect(startsOf(after.body.open_times)).not.toContain(slot);
    }
    const stranger = await call(
      `${books[0]}/book_cleaning`,
      PUBLIC_KEY,
      { cleaner_id: holdId, ...job, customer_name: 'Late', customer_phone: '212 555 0101', address: '2 Main St', zip: '10001' },
      { 'X-User-Email': 'late@example.com' },
    );
    expect(stranger.status).toBe(400);
    const pro = await call(`${pros[1]}/book_job`, holdKey, {
      ...job,
      customer_name: 'Late',
      customer_phone: '212 555 0100',
      address: '1 Main St',
      zip: '10001',
    });
    expect(pro.status).toBe(400);

    // The pro host's holds show on its schedule, from either instance.
    const schedule = await call(`${pros[1]}/schedule`, holdKey);
    const proHolds = won.filter((r) => r.body.cleaner === undefined).map((r) => r.body.hold_id);
    expect(schedule.body.holds.map((h: Json) => h.hold_id).sort()).toEqual(proHolds.sort());
  });
});
