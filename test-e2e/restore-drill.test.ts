import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, createDb, dropDatabase, freePort, migrateToLatest } from '@frontdesk/db';
import { PG_BIN, startThrowawayServer, whyNoStandby } from '@frontdesk/dev-env/standby';
import { Receiver } from '@frontdesk/dev-env/webhook-receiver';
import { chooseTool, findTools, runTool } from '../scripts/cli/pg-tools';
import { outboxDrained, startSmtpInbox } from './mail-sink';
import { ROOT, callApi, cli, startHost, waitFor, type RunningService } from './helpers';

// The restore drill: a busy database (three businesses, keys, single bookings from both
// hosts, a series, a webhook, a feed cursor) backed up with `pnpm cli backup`, restored with
// `pnpm cli restore` into a fresh database, and both hosts started on the copy: every
// booking, key, revocation, manage token, webhook and feed cursor works there as before,
// and a cursor the old database had moved past says it was reset.
jest.setTimeout(300_000);

const testAdmin = () => process.env.FD_TEST_ADMIN_URL!;
const PUBLIC_KEY = 'fdpub_restore_drill_key';
type Json = Record<string, any>;

/** The test server's major version, asked synchronously so the file can skip before it starts. */
function serverMajor(url: string): number {
  const code =
    "const c = new (require('pg').Client)(process.argv[1]); c.connect()" +
    '.then(() => c.query("SELECT current_setting(\'server_version_num\')::int / 10000 AS m"))' +
    '.then((r) => { process.stdout.write(String(r.rows[0].m)); return c.end(); })';
  const res = spawnSync(process.execPath, ['-e', code, url], { cwd: join(ROOT, 'packages/db'), encoding: 'utf8', timeout: 30_000 });
  if (res.status !== 0) throw new Error(`Could not ask the test server its version: ${res.stderr}`);
  return Number(res.stdout);
}

/** Where the drill runs: the tests' server when pg_dump and pg_restore fit its version, else a server of our own of a version they fit. */
const toolsFit = (major: number) => chooseTool(findTools('pg_restore'), major) !== null && chooseTool(findTools('pg_dump'), major) !== null;
/** The major version of the server programs startThrowawayServer runs (PG_BIN), or null when it cannot run them. */
function ownServerMajor(): number | null {
  if (whyNoStandby() !== null) return null;
  const res = spawnSync(join(PG_BIN, 'pg_ctl'), ['--version'], { encoding: 'utf8' });
  const major = /\) (\d+)/.exec(res.stdout ?? '')?.[1];
  return major ? Number(major) : null;
}
const testMajor = serverMajor(testAdmin());
const ownMajor = toolsFit(testMajor) ? null : ownServerMajor();
const onOwnServer = ownMajor !== null && toolsFit(ownMajor);
const fits = toolsFit(testMajor) || onOwnServer;
if (!fits)
  process.stdout.write(
    `\nSkipping the restore drill: no pg_dump and pg_restore of PostgreSQL ${testMajor} or newer on this machine, and no server of a version they fit to start.\n`,
  );
else if (onOwnServer)
  process.stdout.write(
    `\nThe restore drill runs on a PostgreSQL ${ownMajor} server of its own: the tests' server is ${testMajor}, newer than this machine's pg_dump.\n`,
  );
const maybe = fits ? describe : describe.skip;
/** The drill's own server, when it needs one. */
let own: { url: string; stop(): void } | null = null;
const admin = () => own?.url ?? testAdmin();

const names = { source: `fd_drill_${randomBytes(4).toString('hex')}`, copy: `fd_drill_${randomBytes(4).toString('hex')}_copy` };
const urls = { source: '', copy: '' };
const folder = mkdtempSync(join(tmpdir(), 'fd-drill-'));
const backupFile = join(folder, 'front-desk.dump');
let receiver: Receiver;
let smtp: Awaited<ReturnType<typeof startSmtpInbox>>;
/** The hosts running now: on the source database, then on the copy. */
const running: RunningService[] = [];

beforeAll(async () => {
  if (!fits) return;
  if (onOwnServer) {
    // A free port, not a fixed one: another run on this machine, or a server of its own, may hold any given one.
    own = await startThrowawayServer(await freePort());
    urls.source = await createDatabase(admin(), names.source);
    const db = createDb(urls.source, { maxConnections: 1 });
    await migrateToLatest(db).finally(() => db.destroy());
  } else urls.source = await createDatabase(admin(), names.source, process.env.FD_TEST_TEMPLATE);
  urls.copy = await createDatabase(admin(), names.copy);
  receiver = await new Receiver().start();
  smtp = await startSmtpInbox();
});
afterAll(async () => {
  await stopAll();
  rmSync(folder, { recursive: true, force: true });
  if (!fits) return;
  await receiver.stop();
  await smtp.stop();
  for (const name of Object.values(names)) await dropDatabase(admin(), name);
  own?.stop();
});

/** Both hosts on one database. */
async function hosts(url: string) {
  const env = { DATABASE_URL: url, PUBLIC_SHARED_KEY: PUBLIC_KEY, SMTP_URL: smtp.url };
  return { pro: await startHost('pro-desk', env, running), book: await startHost('booking', env, running) };
}

const stopAll = async () => {
  for (const r of running.splice(0)) await r.stop();
};

function createBusiness(name: string, zips: string) {
  const res = cli(['pro', 'create', '--name', name, '--timezone', 'America/New_York', '--zips', zips, '--json'], { DATABASE_URL: urls.source });
  expect([name, res.status, res.stderr]).toEqual([name, 0, '']);
  return JSON.parse(res.stdout) as { pro_id: string; api_key: string };
}

/** Books `count` single jobs for a business on the pro host, each at the next open start. */
async function bookJobs(pro: string, key: string, count: number, tag: string): Promise<string[]> {
  const open = await callApi(`${pro}/open_times?bedrooms=2&bathrooms=1&days=14`, key);
  expect(open.status).toBe(200);
  const starts = (open.body.open_times as Json[]).flatMap((d) => d.starts as string[]);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const body = {
      bedrooms: 2,
      bathrooms: 1,
      start: starts[i * 7]!,
      customer_name: `${tag} ${i}`,
      customer_phone: '212 555 0100',
      address: `${i} Main St`,
      zip: '10001',
    };
    const res = await callApi(`${pro}/book_job`, key, body, { 'Idempotency-Key': `${tag.replace(/ /g, '-')}-${i}` });
    expect([tag, i, res.status, res.body.error]).toEqual([tag, i, 200, undefined]);
    ids.push(res.body.booking_id);
  }
  return ids;
}

/** The upcoming jobs a business's schedule lists, by id. */
const jobIds = async (pro: string, key: string) => ((await callApi(`${pro}/schedule`, key)).body.jobs as Json[]).map((j) => j.booking_id as string).sort();

describe('the pg_dump and pg_restore the CLI picks for a server', () => {
  const tool = (major: number) => ({ path: `/usr/lib/postgresql/${major}/bin/pg_dump`, major, version: `pg_dump (PostgreSQL) ${major}.1` });
  it('is the same major version, else the newest newer one, never an older one', () => {
    expect(chooseTool([tool(15), tool(17), tool(16)], 16)?.major).toBe(16);
    expect(chooseTool([tool(15), tool(17), tool(18)], 16)?.major).toBe(18);
    expect(chooseTool([tool(14), tool(15)], 16)).toBeNull();
    expect(chooseTool([], 16)).toBeNull();
  });
});

maybe('a backup restored into a fresh database', () => {
  it('serves every booking, key and feed cursor on both hosts, keeps secrets hashed or sealed, and resets a cursor ahead of it', async () => {
    // --- A busy database, made through the CLI and both hosts.
    const harbor = createBusiness('Harbor Cleaning', '10001,10002');
    const maple = createBusiness('Maple Maids', '10001');
    const revoked = createBusiness('Old Key Cleaning', '10001');
    const rotated = cli(['pro', 'rotate-key', '--pro', revoked.pro_id, '--json'], { DATABASE_URL: urls.source });
    const newKey = JSON.parse(rotated.stdout).api_key as string;
    const personal = JSON.parse(cli(['key', 'create', '--email', 'dana@example.com', '--json'], { DATABASE_URL: urls.source }).stdout).key as string;
    const source = await hosts(urls.source);

    const hook = await callApi(`${source.pro}/add_webhook`, harbor.api_key, { url: receiver.url });
    expect(hook.status).toBe(200);
    receiver.secrets = [hook.body.secret];
    const harborJobs = await bookJobs(source.pro, harbor.api_key, 4, 'Harbor customer');
    await bookJobs(source.pro, maple.api_key, 3, 'Maple customer');
    const open = await callApi(`${source.pro}/open_times?bedrooms=3&bathrooms=2&days=14`, harbor.api_key);
    const seriesStart = (open.body.open_times as Json[]).at(-1)!.starts.at(-1) as string;
    const series = await callApi(`${source.pro}/book_job`, harbor.api_key, {
      bedrooms: 3,
      bathrooms: 2,
      start: seriesStart,
      frequency: 'weekly',
      customer_name: 'Weekly Customer',
      customer_phone: '212 555 0111',
      address: '9 Elm St',
      zip: '10001',
    });
    expect([series.status, series.body.series?.visits?.length > 5]).toEqual([200, true]);
    const found = await callApi(`${source.book}/find_cleaners?zip=10002&bedrooms=2&bathrooms=1`, PUBLIC_KEY);
    const customer = { 'X-User-Name': 'Dana Park', 'X-User-Email': 'dana@example.com' };
    const byCustomer = await callApi(
      `${source.book}/book_cleaning`,
      personal,
      { cleaner_id: harbor.pro_id, start: found.body.cleaners[0].next_open_times[0].start, bedrooms: 2, bathrooms: 1, address: '40 Pier Rd', zip: '10002' },
      customer,
    );
    expect(byCustomer.status).toBe(200);

    // The feed as a poller has read it, and the webhook acknowledged to its end.
    const feed = await callApi(`${source.pro}/updates?since=0`, harbor.api_key);
    const cursor = feed.body.cursor as number;
    await waitFor('the webhook to deliver the whole feed', async () => receiver.acked().some((g) => g.body.cursor === cursor), 90_000);
    // The customer's confirmation carries a manage link: the outbox keeps it until it is sent, then blanks it.
    const db = createDb(urls.source, { maxConnections: 1 });
    await outboxDrained(db).finally(() => db.destroy());
    expect(smtp.inbox.some((m) => m.to === 'dana@example.com')).toBe(true);
    const before = { harbor: await jobIds(source.pro, harbor.api_key), maple: await jobIds(source.pro, maple.api_key) };
    expect(before.harbor).toEqual(
      expect.arrayContaining([...harborJobs, byCustomer.body.booking_id, ...series.body.series.visits.map((v: Json) => v.booking_id)]),
    );

    // --- The backup, with the hosts still serving.
    const backedUp = cli(['backup', backupFile, '--json'], { DATABASE_URL: urls.source });
    expect([backedUp.status, backedUp.stderr]).toEqual([0, '']);
    expect(JSON.parse(backedUp.stdout)).toMatchObject({ file: backupFile, tables: expect.any(Number), businesses: 3, secret_mail_waiting: 0 });
    expect(cli(['backup', backupFile], { DATABASE_URL: urls.source })).toMatchObject({ status: 1, stderr: expect.stringMatching(/already there/) });

    // Life goes on after the backup: one more booking moves the poller's cursor past the backup's feed.
    const [lost] = await bookJobs(source.pro, harbor.api_key, 1, 'After the backup');
    const ahead = (await callApi(`${source.pro}/updates?since=${cursor}`, harbor.api_key)).body.cursor as number;
    expect(ahead).toBeGreaterThan(cursor);
    await stopAll();

    // --- What the dump holds: the data, never a secret as it was given out.
    const sqlText = await runTool(chooseTool(findTools('pg_restore'), ownMajor ?? testMajor)!, ['--file=-', backupFile]);
    expect(sqlText).toContain(harborJobs[0]);
    expect(sqlText).toContain('Weekly Customer');
    for (const secret of [harbor.api_key, maple.api_key, newKey, revoked.api_key, personal, hook.body.secret, byCustomer.body.manage_token]) {
      expect([secret.slice(0, 6), sqlText.includes(secret)]).toEqual([secret.slice(0, 6), false]);
    }

    // --- The restore: into the empty database; a second one is refused.
    const restored = cli(['restore', backupFile, '--json'], { DATABASE_URL: urls.copy });
    expect([restored.status, restored.stderr]).toEqual([0, '']);
    expect(JSON.parse(restored.stdout)).toMatchObject({ businesses: 3, migrations_to_apply: 0, replaced: false });
    const again = cli(['restore', backupFile], { DATABASE_URL: urls.copy });
    expect(again).toMatchObject({ status: 1, stderr: expect.stringMatching(/is not empty .*--replace/s) });

    // --- Both hosts on the copy.
    const copy = await hosts(urls.copy);
    await checkCopy(copy, { harbor, maple, revoked, newKey, personal, before, lost: lost!, byCustomer: byCustomer.body, cursor, ahead, feed: feed.body });
    await stopAll();

    // --replace puts the backup back over a database that moved on: the booking made on the copy is gone again.
    const { bookings } = JSON.parse(backedUp.stdout) as { bookings: number };
    expect(JSON.parse(restored.stdout).bookings).toBe(bookings);
    const replaced = cli(['restore', backupFile, '--replace', '--json'], { DATABASE_URL: urls.copy });
    expect([replaced.status, replaced.stderr]).toEqual([0, '']);
    expect(JSON.parse(replaced.stdout)).toMatchObject({ replaced: true, bookings, businesses: 3 });
  });
});

interface Drill {
  harbor: { pro_id: string; api_key: string };
  maple: { pro_id: string; api_key: string };
  revoked: { pro_id: string; api_key: string };
  newKey: string;
  personal: string;
  before: { harbor: string[]; maple: string[] };
  lost: string;
  byCustomer: Json;
  cursor: number;
  ahead: number;
  feed: Json;
}

async function checkCopy(copy: { pro: string; book: string }, d: Drill): Promise<void> {
  // Every key that worked still does; the revoked one is still refused.
  expect((await callApi(`${copy.pro}/my_business`, d.harbor.api_key)).body).toMatchObject({ pro_id: d.harbor.pro_id });
  expect((await callApi(`${copy.pro}/my_business`, d.newKey)).body).toMatchObject({ pro_id: d.revoked.pro_id });
  expect((await callApi(`${copy.pro}/my_business`, d.revoked.api_key)).status).toBe(401);
  // Every booking, the series' visits and the customer's among them; the one made after the backup is not there.
  expect(await jobIds(copy.pro, d.harbor.api_key)).toEqual(d.before.harbor);
  expect(await jobIds(copy.pro, d.maple.api_key)).toEqual(d.before.maple);
  expect(d.before.harbor).not.toContain(d.lost);
  const mine = await callApi(`${copy.book}/my_bookings`, d.personal);
  expect(mine.body.bookings.map((b: Json) => b.booking_id)).toEqual([d.byCustomer.booking_id]);
  const status = await callApi(`${copy.book}/booking_status?manage_token=${d.byCustomer.manage_token}`, PUBLIC_KEY);
  expect(status.body).toMatchObject({ booking_id: d.byCustomer.booking_id, status: 'booked' });

  // The poller's cursor from before the backup reads on; the one the old database had moved past is reset to the head.
  const same = await callApi(`${copy.pro}/updates?since=0`, d.harbor.api_key);
  expect(same.body.events).toEqual(d.feed.events);
  expect((await callApi(`${copy.pro}/updates?since=${d.cursor}`, d.harbor.api_key)).body).toMatchObject({ events: [], cursor: d.cursor });
  const reset = await callApi(`${copy.pro}/updates?since=${d.ahead}`, d.harbor.api_key);
  expect(reset.body).toMatchObject({ events: [], cursor: d.cursor, reset: true, message: expect.stringContaining(String(d.ahead)) });

  // The webhook's own cursor came back with it, and its sealed secret still signs: a new booking is delivered, verified.
  const [hook] = (await callApi(`${copy.pro}/list_webhooks`, d.harbor.api_key)).body.webhooks;
  expect(hook).toMatchObject({ cursor: d.cursor, behind: 0 });
  const received = receiver.got.length;
  const [fresh] = await bookJobs(copy.pro, d.harbor.api_key, 1, 'On the copy');
  await waitFor(
    'the webhook from the restored database',
    async () => receiver.got.slice(received).some((g) => g.verified && JSON.stringify(g.body).includes(fresh!)),
    90_000,
  );
}
