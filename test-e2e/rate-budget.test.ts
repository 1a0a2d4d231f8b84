import { randomBytes } from 'node:crypto';
import { createDatabase, dropDatabase, freePort, migrateDatabase } from '@frontdesk/db';
import { createDb } from '@frontdesk/db';
import { issuePersonalKey } from '@frontdesk/use-cases';
import { startService, type RunningService } from './helpers';

// A per-credential budget is one budget, however many replicas serve the credential: calls
// sent at once to two booking processes with one personal key never get through more than
// the limit together.
jest.setTimeout(120_000);

const admin = () => process.env.FD_TEST_ADMIN_URL!;
let name: string;
let url: string;
const replicas: { base: string; svc: RunningService }[] = [];

beforeAll(async () => {
  name = `fd_budget_${randomBytes(4).toString('hex')}`;
  url = await createDatabase(admin(), name);
  await migrateDatabase(url);
  for (let i = 0; i < 2; i += 1) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    replicas.push({ base, svc: await startService('services/booking/src/main.ts', { DATABASE_URL: url, BOOKING_PORT: String(port) }, `${base}/readyz`) });
  }
});
afterAll(async () => {
  for (const r of replicas) await r.svc.stop();
  await dropDatabase(admin(), name);
});

it('lets through at most the writes limit (120 a minute) of 300 writes sent at once to two replicas', async () => {
  const db = createDb(url, { maxConnections: 1 });
  const { key } = await issuePersonalKey(db, 'budget@example.com');
  await db.destroy();
  // A write that is counted and then refused for its input: the budget is taken before the input is judged.
  const write = (i: number) =>
    fetch(`${replicas[i % 2]!.base}/api/v1/cancel_booking`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ manage_token: `not-a-token-${i}` }),
      signal: AbortSignal.timeout(60_000),
    });
  const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => write(i)));
  const statuses = answers.map((a) => a.status);
  const through = statuses.filter((s) => s !== 429);
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
  // Every write let through was counted in PostgreSQL first: not one over the limit.
  expect(through.length).toBeLessThanOrEqual(120);
  // And the budget is not wasted: shares held by a replica are at most 5% of it each.
  expect(through.length).toBeGreaterThanOrEqual(108);
  const refused = answers[statuses.indexOf(429)]!;
  expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(((await refused.json()) as { error: string }).error).toMatch(/^Too many writes from here; try again in \d+ seconds\.$/);
});
