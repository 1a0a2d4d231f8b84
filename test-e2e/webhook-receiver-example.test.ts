import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { createDatabase, dropDatabase, freePort } from '@frontdesk/db';
import { ROOT, callApi, cli, startHost, type RunningService } from './helpers';

// The receiver of docs/webhooks.md (docs/examples/webhook-receiver.mjs), run as it is written:
// its own process, given the secret a real pro-desk process showed when the webhook was added
// over REST. A job booked there is delivered by that process's own worker, and the example
// logs it as verified, with the feed's cursor; a request signed with another secret is refused.
jest.setTimeout(120_000);

const admin = () => process.env.FD_TEST_ADMIN_URL!;
const EXAMPLE = join(ROOT, 'docs', 'examples', 'webhook-receiver.mjs');
let name: string;
let env: Record<string, string>;
const services: RunningService[] = [];
let example: ChildProcess | undefined;
let logged = '';

/** Waits until the example's output holds a line that `match` accepts (no deadline of its own: jest's ends a hung wait). */
async function lineOf(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (;;) {
    const found = logged
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find(match);
    if (found) return found;
    if (example?.exitCode !== null) throw new Error(`the example exited: ${logged}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  name = `fd_e2e_${randomBytes(4).toString('hex')}`;
  env = { DATABASE_URL: await createDatabase(admin(), name), PUBLIC_SHARED_KEY: 'fdpub_e2e_hooks_key' };
  expect(cli(['migrate'], env).status).toBe(0);
});
afterAll(async () => {
  example?.kill('SIGTERM');
  await Promise.all(services.map((s) => s.stop()));
  await dropDatabase(admin(), name);
});

describe('the webhook receiver example of docs/webhooks.md', () => {
  it('verifies and logs a booked job delivered by a real pro-desk process, and refuses a forged request', async () => {
    const pro = JSON.parse(cli(['pro', 'create', '--name', 'Hooked Cleaning', '--timezone', 'America/New_York', '--zips', '10001', '--json'], env).stdout);
    const api = await startHost('pro-desk', env, services);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/front-desk`;
    const added = await callApi(`${api}/add_webhook`, pro.api_key, { url });
    expect(added.status).toBe(200);

    example = spawn(process.execPath, [EXAMPLE], { cwd: ROOT, env: { ...process.env, PORT: String(port), WEBHOOK_SECRET: added.body.secret } });
    example.stdout!.on('data', (d) => (logged += d));
    example.stderr!.on('data', (d) => (logged += d));
    while (!logged.includes(`listening on ${port}`)) {
      if (example.exitCode !== null) throw new Error(`the example exited: ${logged}`);
      await new Promise((r) => setTimeout(r, 50));
    }

    const open = await callApi(`${api}/open_times?bedrooms=2&bathrooms=1&days=14`, pro.api_key);
    const booked = await callApi(`${api}/book_job`, pro.api_key, {
      start: open.body.open_times[0].starts[0],
      bedrooms: 2,
      bathrooms: 1,
      customer_name: 'Rita Receiver',
      customer_phone: '212 555 0100',
      address: '1 Hook St',
      zip: '10001',
    });
    expect(booked.status).toBe(200);

    const line = await lineOf((l) => l.kind === 'booking.created');
    const feed = (await callApi(`${api}/updates?since=0`, pro.api_key)).body.events as { seq: number; kind: string }[];
    const event = feed.find((e) => e.kind === 'booking.created')!;
    expect(line).toEqual({ verified: `evt_${pro.pro_id}_${event.seq}`, kind: 'booking.created', cursor: event.seq });
    const [listed] = (await callApi(`${api}/list_webhooks`, pro.api_key)).body.webhooks;
    expect(listed).toMatchObject({ state: 'active', cursor: event.seq, last_success_at: expect.any(String) });

    // Signed with another secret: refused, and nothing logged.
    const body = JSON.stringify({ business_id: pro.pro_id, cursor: event.seq + 1, kind: 'booking.cancelled' });
    const forged = new Webhook(`whsec_${randomBytes(32).toString('base64')}`).sign('evt_forged', new Date(), body);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'webhook-id': 'evt_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': forged },
      body,
    });
    expect(res.status).toBe(401);
    expect(logged).not.toContain('evt_forged');
  });
});
