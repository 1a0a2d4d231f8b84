import { createBusiness } from '@frontdesk/use-cases';
import { DEFAULT_WEEKLY_HOURS, startsOf } from '@frontdesk/domain';
import { createDb, freePort, migrateDatabase, type Db } from '@frontdesk/db';
import { startPrimaryAndStandby, whyNoStandby, type PrimaryAndStandby } from '@frontdesk/dev-env/standby';
import { callApi, startHost, waitFor, type RunningService } from './helpers';

// A real primary and a streaming standby of it (Debian's PostgreSQL 15 programs, run as the
// postgres user on ports of this file's own), and a book host reading searches from the
// standby (DATABASE_READ_URL). With the standby's replay paused: searches keep answering, a
// time the standby still shows free but the primary has booked is refused with fresh times,
// and once the standby is further behind than the bound, searches read the primary.
jest.setTimeout(240_000);

const PUBLIC_KEY = 'fdpub_e2e_replica_key';
/**
 * The lag bound the host is given: small, so the test waits past it, large enough for a stale
 * read first. The stale read comes after the pause, a booking and a look at the standby, each of
 * which a busy machine slows: with 3 s the bound could pass before it and the read find the
 * primary. Its probe then runs once a second.
 */
const MAX_LAG_MS = 8000;
const ZIP = '10001';
const JOB = 'bedrooms=2&bathrooms=1';
const METRICS_TOKEN = 'replica-test-metrics-token';

const cannot = whyNoStandby();
let servers: PrimaryAndStandby | null = null;
let db: Db | null = null;
const running: RunningService[] = [];
let skipped: string | null = cannot;

beforeAll(async () => {
  if (skipped) return;
  try {
    // Free ports, not fixed ones: another run on this machine, or a server of its own, may hold any given one.
    const primary = await freePort();
    let standby = await freePort();
    while (standby === primary) standby = await freePort(); // neither is bound yet: two draws may agree
    servers = await startPrimaryAndStandby({ primary, standby });
  } catch (err) {
    skipped = `the primary and standby did not start: ${(err as Error).message}`;
  }
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  await db?.destroy();
  servers?.stop();
});

const customer = (cleanerId: string, start: string, email: string) => ({
  cleaner_id: cleanerId,
  start,
  bedrooms: 2,
  bathrooms: 1,
  customer_name: 'Ada Replica',
  customer_email: email,
  address: '1 Standby St',
  zip: ZIP,
});

describe('searches on a streaming replica', () => {
  it('answer while replay is paused, never book a taken time, and go to the primary past the lag bound', async () => {
    if (skipped) {
      console.log(`replicas.test skipped: ${skipped}`);
      return;
    }
    const { primaryUrl, standbyUrl, standbySql } = servers!;
    await migrateDatabase(primaryUrl);
    db = createDb(primaryUrl, { maxConnections: 2 });
    const pro = (await createBusiness(db, { name: 'Mirrored Cleaning', timezone: 'America/New_York', service_zips: [ZIP], weekly_hours: DEFAULT_WEEKLY_HOURS }))
      .pro;
    const book = await startHost(
      'booking',
      {
        DATABASE_URL: primaryUrl,
        DATABASE_READ_URL: standbyUrl,
        DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS),
        PUBLIC_SHARED_KEY: PUBLIC_KEY,
        METRICS_TOKEN,
      },
      running,
    );
    // Whether the host reads the standby now, as /metrics tells whoever runs it.
    const readsStandby = async () => {
      const res = await fetch(`${book.replace(/\/api\/v1$/, '')}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const value = /^frontdesk_db_replica_reads_enabled\{[^}]*replica="0"[^}]*\} (\d)$/m.exec(await res.text())?.[1];
      return value === '1';
    };
    const times = async () => {
      const res = await callApi(`${book}/available_times?cleaner_id=${pro.id}&${JOB}&days=7`, PUBLIC_KEY);
      expect(res.status).toBe(200);
      return startsOf(res.body.open_times as never);
    };
    const search = async () => {
      const res = await callApi(`${book}/find_cleaners?zip=${ZIP}&${JOB}`, PUBLIC_KEY);
      expect(res.status).toBe(200);
      return res.body.cleaners as { cleaner_id: string }[];
    };
    // The standby has replayed the business.
    await waitFor('the standby to hold the business', async () => (await standbySql(`SELECT 1 FROM pros WHERE id = '${pro.id}'`)).length === 1);
    await waitFor('the host to read the standby', readsStandby);
    const before = await times();
    const taken = before[0]!;
    expect(taken).toBeDefined();
    expect((await search()).map((c) => c.cleaner_id)).toEqual([pro.id]);

    // The lag grows from the last primary position the standby replayed: a probe before the
    // pause at the earliest (the host's own workers may write before the booking does).
    const pausing = Date.now();
    await standbySql('SELECT pg_wal_replay_pause()');
    await waitFor(
      'replay to pause',
      async () => (await standbySql<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state'))[0]!.state === 'paused',
    );

    // The primary takes the first open time; the standby does not replay it.
    const booked = await callApi(`${book}/book_cleaning`, PUBLIC_KEY, customer(pro.id, taken, 'first@example.com'));
    expect(booked.status).toBe(200);
    expect(await standbySql(`SELECT 1 FROM bookings WHERE pro_id = '${pro.id}'`)).toHaveLength(0);

    // Within the bound the search reads the standby: the taken time still shows, and searches answer.
    const stale = await times();
    expect(stale).toContain(taken);
    expect((await search()).map((c) => c.cleaner_id)).toEqual([pro.id]);

    // Booking what the standby offers is decided on the primary: refused, with fresh times.
    const second = await callApi(`${book}/book_cleaning`, PUBLIC_KEY, customer(pro.id, taken, 'second@example.com'));
    expect(second.status).toBe(400);
    expect(second.body.error).toMatch(/taken/);
    expect(second.body.error).toMatch(/nearest open times/i);
    expect((await db.selectFrom('bookings').select('id').where('pro_id', '=', pro.id).execute()).length).toBe(1);

    // Past the bound, with replay still paused, searches read the primary: the taken time is gone.
    await waitFor('searches to read the primary', async () => !(await times()).includes(taken), MAX_LAG_MS + 20_000);
    // Not before the bound: at most a probe's interval (and a second to spare) before it, counted from the pause.
    expect(Date.now() - pausing).toBeGreaterThanOrEqual(MAX_LAG_MS - 2000);
    expect((await standbySql<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state'))[0]!.state).toBe('paused');
    expect(await standbySql(`SELECT 1 FROM bookings WHERE pro_id = '${pro.id}'`)).toHaveLength(0);
    expect((await search()).map((c) => c.cleaner_id)).toEqual([pro.id]);
    expect(await readsStandby()).toBe(false);

    // Resumed, the standby catches up and is read again; what the host kept stays right.
    await standbySql('SELECT pg_wal_replay_resume()');
    await waitFor('the standby to replay the booking', async () => (await standbySql(`SELECT 1 FROM bookings WHERE pro_id = '${pro.id}'`)).length === 1);
    expect(await times()).not.toContain(taken);
    await waitFor('the host to read the standby again', readsStandby);
    expect(await times()).not.toContain(taken);
  });
});
