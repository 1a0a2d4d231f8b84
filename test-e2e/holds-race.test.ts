import { randomBytes } from 'node:crypto';
import { createDatabase, dropDatabase } from '@frontdesk/db';
import { callApi, cli, startHost, type RunningService } from './helpers';
import { startsOf } from '@frontdesk/domain';

// Processes start and answer slower on a busy machine: limits that fit the work, and every wait is on readiness.
jest.setTimeout(120_000);

// Holds across processes: three crews free at one start, fifty racers holding it from two
// instances of each host. The triggers of the holds migration, under the crew's lock, and the
// business's row lock must let exactly three through, one per crew; then no booking gets in.
const admin = () => process.env.FD_TEST_ADMIN_URL!;
const PUBLIC_KEY = 'fdpub_e2e_holds_key';
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
  const pro = JSON.parse(cli(['pro', 'create', '--name', 'Three Crews Holding', '--timezone', 'America/New_York', '--zips', '10001', '--json'], env).stdout);
  proKey = pro.api_key;
  proId = pro.pro_id;
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  await dropDatabase(admin(), name);
});

describe('holds raced from both hosts, two instances of each', () => {
  it('50 racers holding one start with 3 crews free get exactly 3 holds, each on a different crew, and the start is taken for everyone else', async () => {
    const pros = [await start('pro-desk'), await start('pro-desk')];
    const books = [await start('booking'), await start('booking')];
    for (const crew of ['North', 'South']) expect((await call(`${pros[0]}/add_crew`, proKey, { name: crew })).status).toBe(200);
    const open = await call(`${books[1]}/available_times?cleaner_id=${proId}&bedrooms=3&bathrooms=2&days=7`, PUBLIC_KEY);
    const slot = startsOf(open.body.open_times).at(-1)!;
    const job = { bedrooms: 3, bathrooms: 2, start: slot };
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0
          ? call(`${pros[(i / 2) % 2]}/hold_time`, proKey, job)
          : call(`${books[((i - 1) / 2) % 2]}/hold_time`, PUBLIC_KEY, { cleaner_id: proId, ...job }, { 'X-User-Email': `racer${i}@example.com` }),
      ),
    );
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(3);
    expect(new Set(won.map((r) => r.body.crew_id)).size).toBe(3);
    for (const loser of results.filter((r) => r.status !== 200)) expect(loser.status).toBe(400);

    // Every host now offers that start to no one, and no one else books it.
    for (const host of books) {
      const after = await call(`${host}/available_times?cleaner_id=${proId}&bedrooms=3&bathrooms=2&days=7`, PUBLIC_KEY);
      expect(startsOf(after.body.open_times)).not.toContain(slot);
    }
    const stranger = await call(
      `${books[0]}/book_cleaning`,
      PUBLIC_KEY,
      { cleaner_id: proId, ...job, customer_name: 'Late', customer_phone: '212 555 0101', address: '2 Main St', zip: '10001' },
      { 'X-User-Email': 'late@example.com' },
    );
    expect(stranger.status).toBe(400);
    const pro = await call(`${pros[1]}/book_job`, proKey, {
      ...job,
      customer_name: 'Late',
      customer_phone: '212 555 0100',
      address: '1 Main St',
      zip: '10001',
    });
    expect(pro.status).toBe(400);

    // The pro host's holds show on its schedule, from either instance.
    const schedule = await call(`${pros[1]}/schedule`, proKey);
    const proHolds = won.filter((r) => r.body.cleaner === undefined).map((r) => r.body.hold_id);
    expect(schedule.body.holds.map((h: Json) => h.hold_id).sort()).toEqual(proHolds.sort());
  });
});
