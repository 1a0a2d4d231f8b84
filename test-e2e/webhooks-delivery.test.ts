import { randomBytes } from 'node:crypto';
import { createDatabase, createDb, dropDatabase, type Db } from '@frontdesk/db';
import { sql } from 'kysely';
import { Receiver } from '@frontdesk/dev-env/webhook-receiver';
import { callApi, cli, startHost, type RunningService } from './helpers';

// Processes start and answer slower on a busy machine, and a lease of a killed replica runs
// out after 30 s: limits that fit the work, and every wait is on a condition.
jest.setTimeout(240_000);

// Webhooks from real processes: two replicas of the pro host share one endpoint of one
// business. The receiver fails, stalls past the 10 s deadline, answers slowly while the replica
// sending to it is killed, and the database drops every connection mid-batch. It must see
// every event of the feed, in feed order, each under one id, delivered until acknowledged.
const admin = () => process.env.FD_TEST_ADMIN_URL!;
let name: string;
let env: Record<string, string>;
let db: Db;
const services: RunningService[] = [];
let receiver: Receiver;
type Json = Record<string, any>;

beforeAll(async () => {
  name = `fd_e2e_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(admin(), name);
  env = { DATABASE_URL: url };
  expect(cli(['migrate'], env).status).toBe(0);
  db = createDb(url, { maxConnections: 2 });
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  await receiver?.stop();
  await db?.destroy();
  await dropDatabase(admin(), name);
});

async function until(what: string, done: () => Promise<boolean> | boolean, meanwhile?: () => Promise<unknown>): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`waited 90 s for ${what}`);
    await meanwhile?.();
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('webhooks sent by two replicas of the pro host', () => {
  it('deliver every event in order, at least once, through failures, a stall, a killed sender and a dropped database', async () => {
    const pro = JSON.parse(cli(['pro', 'create', '--name', 'Hooked Cleaning', '--timezone', 'America/New_York', '--zips', '10001', '--json'], env).stdout);
    const key: string = pro.api_key;
    const [a, b] = [await startHost('pro-desk', env, services), await startHost('pro-desk', env, services)];
    const replicas = services.slice(-2);
    const added = await callApi(`${a}/add_webhook`, key, { url: receiver.url });
    expect(added.status).toBe(200);
    receiver.secrets = [added.body.secret];
    // A client as the 503's sentence asks: a request the database could not take just now (the
    // first one after every connection dropped meets a dying connection) is sent again a moment
    // later, a write under the same Idempotency-Key, so a retry never books twice.
    const api = async (url: string, body?: object, idempotencyKey?: string) => {
      for (let attempt = 1; ; attempt++) {
        const res = await callApi(url, key, body, idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {});
        if (res.status !== 503 || attempt === 10) return res;
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    const retryNow = () => api(`${b}/update_webhook`, { webhook_id: added.body.webhook_id, paused: false });
    const book = async (host: string, i: number) => {
      const open = await api(`${host}/open_times?bedrooms=2&bathrooms=1&days=14`);
      expect([i, open.status]).toEqual([i, 200]);
      const res = await api(
        `${host}/book_job`,
        {
          bedrooms: 2,
          bathrooms: 1,
          start: open.body.open_times[0].starts[0],
          customer_name: `Customer ${i}`,
          customer_phone: '212 555 0100',
          address: `${i} Main St`,
          zip: '10001',
        },
        `webhooks-e2e-${i}`,
      );
      expect([i, res.status]).toEqual([i, 200]);
    };

    // Two failures and a stall (the sender's 10 s deadline ends it), then answers.
    receiver.script = [500, 503, 0];
    for (let i = 0; i < 4; i++) await book(i % 2 === 0 ? a : b, i);
    await until('three failed tries', () => receiver.got.length >= 3, retryNow);

    // A slow receiver, and the replica holding the endpoint killed mid-send.
    receiver.delayMs = 400;
    for (let i = 4; i < 10; i++) await book(i % 2 === 0 ? a : b, i);
    const holderPid = async () => {
      const row = await db.selectFrom('webhooks').select('lease_holder').executeTakeFirst();
      return Number(row?.lease_holder?.split(':')[1] ?? NaN);
    };
    // Either replica may claim the endpoint and send the whole batch under one lease, so the one
    // killed is whichever holds it mid-send, and the other must take over.
    let killed = -1;
    await until(
      'a replica holding the endpoint',
      async () => {
        const pid = await holderPid();
        killed = replicas.findIndex((r) => r.child.pid === pid);
        return killed >= 0;
      },
      retryNow,
    );
    const ackedBeforeKill = receiver.acked().length;
    replicas[killed]!.child.kill('SIGKILL');
    const survivor = killed === 0 ? b : a;

    // The other replica takes over once the lease runs out (it is owed new events, even if the
    // killed one got its last send through); mid-batch, every connection drops.
    for (let i = 10; i < 12; i++) await book(survivor, i);
    await until('the other replica sending', () => receiver.acked().length > ackedBeforeKill + 1);
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name} AND pid <> pg_backend_pid()`.execute(db);
    receiver.delayMs = 0;
    for (let i = 12; i < 14; i++) await book(survivor, i);

    const feed = async () => (await api(`${survivor}/updates?since=0`)).body.events as Json[];
    const events = await feed();
    await until('every event acknowledged', async () => {
      const [w] = (await api(`${survivor}/list_webhooks`)).body.webhooks;
      return w.behind === 0 && w.cursor === events.at(-1)!.seq;
    });

    const all = await feed();
    expect(all.filter((e) => e.kind === 'booking.created')).toHaveLength(14);
    const acked = receiver.acked();
    expect(acked.every((g) => g.verified)).toBe(true);
    const cursors = acked.map((g) => g.body.cursor as number);
    // In order (a resend after the kill may repeat the last one), with no gap, and each id one event.
    for (let i = 1; i < cursors.length; i++) expect([i, cursors[i]! >= cursors[i - 1]!]).toEqual([i, true]);
    expect([...new Set(cursors)]).toEqual(all.map((e) => e.seq));
    for (const g of receiver.got) expect(g.headers['webhook-id']).toBe(`evt_${pro.pro_id}_${g.body.cursor as number}`);
    // What each acknowledged event carried is what updates shows.
    const bySeq = new Map(all.map((e) => [e.seq, e]));
    for (const g of acked) expect(g.body).toEqual({ business_id: pro.pro_id, cursor: g.body.cursor, ...bySeq.get(g.body.cursor as number) });
  });
});
