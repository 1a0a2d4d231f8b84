import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { appendEvent, createDatabase, createDb, dropDatabase, migrateDown, migrateToLatest, purgeExpired, type Db } from '../src';
import { hashSecret } from '../src/secrets';
import { createTestDatabase, type TestDatabase } from '../src/testing';
import { makePro } from '@frontdesk/dev-env/factories';
import type { EventKind } from '@frontdesk/domain';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

/** A database of its own (migrations move it up and down), dropped after `use`. */
async function withOwnDatabase(use: (db: Db) => Promise<void>): Promise<void> {
  const admin = process.env.FD_TEST_ADMIN_URL!;
  const name = `fd_migr_${randomBytes(4).toString('hex')}`;
  const db = createDb(await createDatabase(admin, name), { maxConnections: 1 });
  try {
    await use(db);
  } finally {
    await db.destroy();
    await dropDatabase(admin, name);
  }
}

describe('migrations', () => {
  it('run up, down and up again on an empty database', async () => {
    await withOwnDatabase(async (db) => {
      const tables = async () =>
        (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_%'`.execute(db)).rows[0]!
          .n;
      expect(await migrateToLatest(db)).toEqual([
        '20261121T110000-initial-schema',
        '20261121T120000-customer-booking',
        '20261121T130000-pro-config-version',
        '20261121T140000-sign-in-and-outbox',
        '20261121T150000-oauth',
        '20261121T160000-idempotency-keys',
        '20261121T170000-security',
        '20261121T180000-change-notifications',
        '20261122T100000-business-accounts',
        '20261122T110000-dashboard',
        '20261122T120000-series',
        '20261124T120000-dashboard-seen',
        '20261124T130000-owner-notices',
        '20261125T120000-crews',
        '20261125T130000-oauth-issuer',
        '20261125T140000-idempotency-holder',
        '20261125T150000-webhooks',
        '20261125T160000-booking-revisions',
        '20261125T170000-webhook-older-secret',
        '20261126T120000-holds',
        '20261127T120000-series-plans',
        '20261127T140000-clients',
        '20261128T120000-customer-messages',
        '20261128T130000-on-my-way-and-agenda',
        '20261128T140000-properties',
        '20261128T150000-host-turnovers',
        '20261128T180000-turnover-property',
        '20261128T190000-stopped-rentals',
      ]);
      expect(await tables()).toBe(36);
      await migrateDown(db); // stopped rentals: a table
      expect(await tables()).toBe(35);
      await migrateDown(db); // a turnover's property: a column
      expect(await tables()).toBe(35);
      await migrateDown(db); // hosts' turnovers: three columns
      expect(await tables()).toBe(35);
      await migrateDown(db); // properties: their table, feeds and stays
      expect(await tables()).toBe(32);
      await migrateDown(db); // on my way and the owner's agenda: a table and three columns
      expect(await tables()).toBe(31);
      await migrateDown(db); // customer messages: three tables and columns
      expect(await tables()).toBe(28);
      await migrateDown(db); // clients: their table and two columns
      expect(await tables()).toBe(27);
      await migrateDown(db); // series plans: two columns
      expect(await tables()).toBe(27);
      await migrateDown(db); // holds: a table and a column
      expect(await tables()).toBe(26);
      await migrateDown(db); // a webhook's older secret: columns only
      expect(await tables()).toBe(26);
      await migrateDown(db); // booking revisions: a column only
      expect(await tables()).toBe(26);
      await migrateDown(db); // webhooks: their table
      expect(await tables()).toBe(25);
      await migrateDown(db); // idempotency holders: a column only
      expect(await tables()).toBe(25);
      await migrateDown(db); // the OAuth rows' issuer: columns only
      expect(await tables()).toBe(25);
      await migrateDown(db); // crews: their table and their calendar feeds
      expect(await tables()).toBe(23);
      await migrateDown(db); // owner notices: columns only
      expect(await tables()).toBe(23);
      await migrateDown(db); // the dashboard's own read state: a column, no table
      expect(await tables()).toBe(23);
      await migrateDown(db);
      expect(await tables()).toBe(22);
      await migrateDown(db);
      expect(await tables()).toBe(20);
      await migrateDown(db);
      expect(await tables()).toBe(20);
      await migrateDown(db);
      expect(await tables()).toBe(20);
      await migrateDown(db);
      expect(await tables()).toBe(18);
      await migrateDown(db);
      expect(await tables()).toBe(17);
      await migrateDown(db);
      expect(await tables()).toBe(12);
      await migrateDown(db);
      expect(await tables()).toBe(9);
      await migrateDown(db);
      expect(await tables()).toBe(9);
      await migrateDown(db);
      expect(await tables()).toBe(7);
      await migrateDown(db);
      expect(await tables()).toBe(0);
      await migrateToLatest(db);
      expect(await tables()).toBe(36);
      expect(await migrateToLatest(db)).toEqual([]);
    });
  });
});

describe('the OAuth issuer migration', () => {
  it("gives rows made before it their resource's issuer, and drops the sign-in codes and pending authorizations in flight", async () => {
    await withOwnDatabase(async (db) => {
      await migrateToLatest(db);
      expect(await migrateDown(db)).toEqual(['20261128T190000-stopped-rentals']); // the ones after it
      expect(await migrateDown(db)).toEqual(['20261128T180000-turnover-property']);
      expect(await migrateDown(db)).toEqual(['20261128T150000-host-turnovers']);
      expect(await migrateDown(db)).toEqual(['20261128T140000-properties']);
      expect(await migrateDown(db)).toEqual(['20261128T130000-on-my-way-and-agenda']);
      expect(await migrateDown(db)).toEqual(['20261128T120000-customer-messages']);
      expect(await migrateDown(db)).toEqual(['20261127T140000-clients']);
      expect(await migrateDown(db)).toEqual(['20261127T120000-series-plans']);
      expect(await migrateDown(db)).toEqual(['20261126T120000-holds']);
      expect(await migrateDown(db)).toEqual(['20261125T170000-webhook-older-secret']);
      expect(await migrateDown(db)).toEqual(['20261125T160000-booking-revisions']);
      expect(await migrateDown(db)).toEqual(['20261125T150000-webhooks']);
      expect(await migrateDown(db)).toEqual(['20261125T140000-idempotency-holder']);
      expect(await migrateDown(db)).toEqual(['20261125T130000-oauth-issuer']);
      const soon = new Date(Date.now() + 600_000);
      await sql`INSERT INTO oauth_clients (id, name, redirect_uris) VALUES ('fdc_old', 'Old', ARRAY['https://a.example/cb'])`.execute(db);
      await sql`INSERT INTO oauth_refresh_tokens (token_hash, family_id, client_id, email, scope, resource, expires_at)
        VALUES (${hashSecret('r-api')}, 'f1', 'fdc_old', 'a@example.com', 'read', 'https://book.example', ${soon}),
               (${hashSecret('r-mcp')}, 'f2', 'fdc_old', 'a@example.com', 'read', 'https://pro.example/mcp', ${soon})`.execute(db);
      await sql`INSERT INTO oauth_requests (id, client_id, redirect_uri, code_challenge, scope, resource, expires_at)
        VALUES ('azr_in_the_clear', 'fdc_old', 'https://a.example/cb', 'c', 'read', 'https://book.example', ${soon})`.execute(db);
      await sql`INSERT INTO sign_in_codes (id, email, code_hash, expires_at, consumed_at)
        VALUES ('sic_live', 'a@example.com', ${hashSecret('x')}, ${soon}, NULL), ('sic_used', 'b@example.com', ${hashSecret('y')}, ${soon}, now())`.execute(db);
      expect(await migrateToLatest(db)).toEqual([
        '20261125T130000-oauth-issuer',
        '20261125T140000-idempotency-holder',
        '20261125T150000-webhooks',
        '20261125T160000-booking-revisions',
        '20261125T170000-webhook-older-secret',
        '20261126T120000-holds',
        '20261127T120000-series-plans',
        '20261127T140000-clients',
        '20261128T120000-customer-messages',
        '20261128T130000-on-my-way-and-agenda',
        '20261128T140000-properties',
        '20261128T150000-host-turnovers',
        '20261128T180000-turnover-property',
        '20261128T190000-stopped-rentals',
      ]);
      const issuers = await sql<{ family_id: string; issuer: string }>`SELECT family_id, issuer FROM oauth_refresh_tokens ORDER BY family_id`.execute(db);
      expect(issuers.rows).toEqual([
        { family_id: 'f1', issuer: 'https://book.example' },
        { family_id: 'f2', issuer: 'https://pro.example' },
      ]);
      expect((await sql`SELECT id FROM oauth_requests`.execute(db)).rows).toEqual([]);
      expect((await sql<{ id: string }>`SELECT id FROM sign_in_codes`.execute(db)).rows).toEqual([{ id: 'sic_used' }]);
    });
  });
});

describe('the event sequence', () => {
  it('is gapless per pro: a rolled-back event gives its number back', async () => {
    const { pro } = await makePro(t.db);
    await appendEvent(t.db, pro.id, { kind: 'follow_up.due', payload: {}, at: new Date() });
    await expect(
      t.db.transaction().execute(async (trx) => {
        await appendEvent(trx, pro.id, { kind: 'follow_up.due', payload: {}, at: new Date() });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await appendEvent(t.db, pro.id, { kind: 'follow_up.due', payload: {}, at: new Date() });
    const rows = await t.db.selectFrom('events').select(['seq', 'kind']).where('pro_id', '=', pro.id).orderBy('seq').execute();
    expect(rows).toEqual([
      { seq: 1, kind: 'follow_up.due' },
      { seq: 2, kind: 'follow_up.due' },
    ]);
  });

  it('is commit-ordered: a later writer waits for an open one, so a reader never skips a number', async () => {
    const { pro } = await makePro(t.db);
    let releaseA!: () => void;
    const aHolds = new Promise<void>((r) => (releaseA = r));
    let aWrote!: () => void;
    const aHasSeq = new Promise<void>((r) => (aWrote = r));
    const a = t.db.transaction().execute(async (trx) => {
      const seq = await appendEvent(trx, pro.id, { kind: 'follow_up.due', payload: {}, at: new Date() });
      aWrote();
      await aHolds; // keep the transaction open, uncommitted
      return seq;
    });
    await aHasSeq;
    let bDone = false;
    const b = t.db
      .transaction()
      .execute((trx) => appendEvent(trx, pro.id, { kind: 'follow_up.due', payload: {}, at: new Date() }))
      .then((seq) => {
        bDone = true;
        return seq;
      });
    // Wait until B is blocked on A's row lock (seen by the server), not for a fixed time.
    for (;;) {
      const waiting = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(t.db);
      if (waiting.rows[0]!.n > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(bDone).toBe(false); // B cannot take a number, let alone commit, before A commits
    const visible = await t.db.selectFrom('events').select('seq').where('pro_id', '=', pro.id).execute();
    expect(visible).toEqual([]);
    releaseA();
    expect(await a).toBe(1);
    expect(await b).toBe(2);
  });

  it('writes an event with a dedupe key once, however many writers race for it', async () => {
    const { pro } = await makePro(t.db);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.db.transaction().execute((trx) => appendEvent(trx, pro.id, { kind: 'jobs.today', payload: {}, at: new Date(), dedupeKey: 'jobs.today:2030-01-07' })),
      ),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const n = await t.db.selectFrom('events').select(t.db.fn.countAll<number>().as('n')).where('pro_id', '=', pro.id).executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(1);
  });
});

describe('purgeExpired', () => {
  it('deletes codes, sessions, authorizations and tokens that can no longer be used, and keeps live ones', async () => {
    const now = new Date('2030-01-10T00:00:00Z');
    const old = new Date('2030-01-01T00:00:00Z');
    const soon = new Date('2030-01-10T00:05:00Z');
    await t.db
      .insertInto('sign_in_codes')
      .values([
        { id: 'sic_old', email: 'a@example.com', code_hash: hashSecret('1'), expires_at: old, consumed_at: null },
        { id: 'sic_live', email: 'a@example.com', code_hash: hashSecret('2'), expires_at: soon, consumed_at: null },
      ])
      .execute();
    await t.db
      .insertInto('key_sessions')
      .values([
        { token_hash: hashSecret('s1'), email: 'a@example.com', expires_at: old },
        { token_hash: hashSecret('s2'), email: 'a@example.com', expires_at: soon },
      ])
      .execute();
    await t.db
      .insertInto('oauth_clients')
      .values({ id: 'fdc_p', name: 'P', redirect_uris: ['https://p.example/cb'] })
      .execute();
    const refresh = (hash: string, expires: Date, revoked: Date | null) => ({
      token_hash: hashSecret(hash),
      family_id: 'f',
      client_id: 'fdc_p',
      email: 'a@example.com',
      scope: 'read',
      resource: 'r',
      issuer: 'r',
      expires_at: expires,
      used_at: null,
      revoked_at: revoked,
    });
    await t.db
      .insertInto('oauth_refresh_tokens')
      .values([refresh('r1', old, null), refresh('r2', new Date('2030-02-01T00:00:00Z'), old), refresh('r3', new Date('2030-02-01T00:00:00Z'), null)])
      .execute();
    const { pro } = await makePro(t.db);
    const crew = (await sql<{ id: string }>`SELECT id FROM crews WHERE pro_id = ${pro.id}`.execute(t.db)).rows[0]!;
    // A hold that lapsed nine days before `now`, and one that lapses the day before (kept: its owner may still ask why it is gone).
    for (const [id, starts, expires] of [
      ['hold_lapsed', '2029-12-20T15:00:00Z', old],
      ['hold_recent', '2029-12-21T15:00:00Z', new Date('2030-01-09T12:00:00Z')],
    ] as const) {
      await sql`
        INSERT INTO holds (id, pro_id, crew_id, host, starts_at, ends_at, blocked_until, expires_at, job, quote, price_cents, owner_credential, created_at)
        VALUES (${id}, ${pro.id}, ${crew.id}, 'pro', ${starts}::timestamptz, ${starts}::timestamptz + interval '2 hours', ${starts}::timestamptz + interval '150 minutes',
                ${expires}, '{}'::jsonb, '{}'::jsonb, 10000, 'pro:test', ${expires}::timestamptz - interval '10 minutes')`.execute(t.db);
    }
    const purged = await purgeExpired(t.db, now);
    expect(purged).toMatchObject({ sign_in_codes: 1, key_sessions: 1, oauth_refresh_tokens: 2, holds: 1 });
    expect((await t.db.selectFrom('holds').select('id').where('pro_id', '=', pro.id).execute()).map((r) => r.id)).toEqual(['hold_recent']);
    expect((await t.db.selectFrom('sign_in_codes').select('id').execute()).map((r) => r.id)).toEqual(['sic_live']);
    expect(await t.db.selectFrom('oauth_refresh_tokens').select('token_hash').execute()).toEqual([{ token_hash: hashSecret('r3') }]);
    expect(await purgeExpired(t.db, now)).toMatchObject({ sign_in_codes: 0, key_sessions: 0, oauth_refresh_tokens: 0 });
  });
});

describe('the booking revisions migration', () => {
  it('starts each job at a revision no copy already handed out outranks, and names the crew in older series and today events', async () => {
    await withOwnDatabase(async (db) => {
      await migrateToLatest(db);
      expect(await migrateDown(db)).toEqual(['20261128T190000-stopped-rentals']);
      expect(await migrateDown(db)).toEqual(['20261128T180000-turnover-property']);
      expect(await migrateDown(db)).toEqual(['20261128T150000-host-turnovers']);
      expect(await migrateDown(db)).toEqual(['20261128T140000-properties']);
      expect(await migrateDown(db)).toEqual(['20261128T130000-on-my-way-and-agenda']);
      expect(await migrateDown(db)).toEqual(['20261128T120000-customer-messages']);
      expect(await migrateDown(db)).toEqual(['20261127T140000-clients']);
      expect(await migrateDown(db)).toEqual(['20261127T120000-series-plans']);
      expect(await migrateDown(db)).toEqual(['20261126T120000-holds']);
      expect(await migrateDown(db)).toEqual(['20261125T170000-webhook-older-secret']);
      expect(await migrateDown(db)).toEqual(['20261125T160000-booking-revisions']);
      const { pro } = await makePro(db);
      const crew = (await sql<{ id: string; name: string }>`SELECT id, name FROM crews WHERE pro_id = ${pro.id}`.execute(db)).rows[0]!;
      const at = (h: number) => new Date(Date.UTC(2026, 10, 30, h));
      const insert = (id: string, status: string, start: number, changedAfterSeconds: number) =>
        sql`
        INSERT INTO bookings (id, pro_id, channel, status, starts_at, ends_at, blocked_until, customer_name, customer_phone, address, zip,
                              bedrooms, bathrooms, clean_type, frequency, price_cents, quote, crew_id, cancelled_at, cancelled_by, created_at, updated_at)
        VALUES (${id}, ${pro.id}, 'pro', ${status}, ${at(start)}, ${at(start + 1)}, ${at(start + 1)}, 'Ana', '212 555 0100', '1 Main St', '10001',
                2, 1, 'standard', 'once', 10000, '{}'::jsonb, ${crew.id}, ${status === 'cancelled' ? at(0) : null}, ${status === 'cancelled' ? 'pro' : null},
                ${at(0)}, ${new Date(at(0).getTime() + changedAfterSeconds * 1000)})`.execute(db);
      await insert('bk_untouched', 'booked', 9, 0);
      await insert('bk_moved_twice', 'booked', 11, 0); // moved twice in its first second
      await insert('bk_cancelled', 'cancelled', 13, 0);
      await insert('bk_moved_later', 'booked', 15, 7200); // the old rule gave 7200
      const event = (kind: EventKind, payload: Record<string, unknown>) => appendEvent(db, pro.id, { kind, payload, at: at(0) });
      await event('booking.rescheduled', { booking_id: 'bk_moved_twice' });
      await event('booking.rescheduled', { booking_id: 'bk_moved_twice' });
      await event('booking.rescheduled', { booking_id: 'bk_moved_later' });
      await sql`INSERT INTO series (id, pro_id, frequency, local_minutes, first_date, planned_through, template_booking_id, created_at)
                VALUES ('ser_old', ${pro.id}, 'weekly', 540, '2026-11-30', '2027-02-22', 'bk_untouched', ${at(0)})`.execute(db);
      await event('series.created', { series_id: 'ser_old', message: 'A series.' });
      await event('jobs.today', { jobs: [{ booking_id: 'bk_untouched' }, { booking_id: 'bk_moved_twice' }], message: 'Two jobs.' });

      expect(await migrateToLatest(db)).toEqual([
        '20261125T160000-booking-revisions',
        '20261125T170000-webhook-older-secret',
        '20261126T120000-holds',
        '20261127T120000-series-plans',
        '20261127T140000-clients',
        '20261128T120000-customer-messages',
        '20261128T130000-on-my-way-and-agenda',
        '20261128T140000-properties',
        '20261128T150000-host-turnovers',
        '20261128T180000-turnover-property',
        '20261128T190000-stopped-rentals',
      ]);
      const revisions = await sql<{ id: string; revision: number }>`SELECT id, revision FROM bookings ORDER BY id`.execute(db);
      expect(revisions.rows).toEqual([
        { id: 'bk_cancelled', revision: 1 },
        { id: 'bk_moved_later', revision: 7200 },
        { id: 'bk_moved_twice', revision: 2 },
        { id: 'bk_untouched', revision: 0 },
      ]);
      const payloads = await sql<{ kind: string; payload: Record<string, unknown> }>`
        SELECT kind, payload FROM events WHERE kind IN ('series.created', 'jobs.today') ORDER BY seq`.execute(db);
      const named = { crew_id: crew.id, crew_name: crew.name };
      expect(payloads.rows).toEqual([
        { kind: 'series.created', payload: { series_id: 'ser_old', message: 'A series.', ...named } },
        {
          kind: 'jobs.today',
          payload: {
            jobs: [
              { booking_id: 'bk_untouched', ...named },
              { booking_id: 'bk_moved_twice', ...named },
            ],
            message: 'Two jobs.',
          },
        },
      ]);
    });
  });
});

describe('the clients migration', () => {
  it('gives stored bookings and direct leads their clients, one per email or phone, and never a platform lead’s customer', async () => {
    await withOwnDatabase(async (db) => {
      await migrateToLatest(db);
      expect(await migrateDown(db)).toEqual(['20261128T190000-stopped-rentals']);
      expect(await migrateDown(db)).toEqual(['20261128T180000-turnover-property']);
      expect(await migrateDown(db)).toEqual(['20261128T150000-host-turnovers']);
      expect(await migrateDown(db)).toEqual(['20261128T140000-properties']);
      expect(await migrateDown(db)).toEqual(['20261128T130000-on-my-way-and-agenda']);
      expect(await migrateDown(db)).toEqual(['20261128T120000-customer-messages']);
      expect(await migrateDown(db)).toEqual(['20261127T140000-clients']);
      const { pro } = await makePro(db);
      const crew = (await sql<{ id: string }>`SELECT id FROM crews WHERE pro_id = ${pro.id}`.execute(db)).rows[0]!;
      const at = (h: number) => new Date(Date.UTC(2026, 10, 30, h));
      await sql`INSERT INTO leads (id, pro_id, source, customer_first_name, contact, clean_type, frequency, add_ons, pets, created_at)
        VALUES ('lead_direct', ${pro.id}, 'website', 'Bo', 'call (212) 555-0199', 'standard', 'once', '{}', false, ${at(0)}),
               ('lead_paid', ${pro.id}, 'marketplace_1', NULL, NULL, 'standard', 'once', '{}', false, ${at(0)})`.execute(db);
      const insert = (id: string, o: { name: string; email: string | null; phone: string | null; lead: string | null; hour: number }) =>
        sql`
        INSERT INTO bookings (id, pro_id, channel, starts_at, ends_at, blocked_until, customer_name, customer_phone, customer_email, address, zip,
                              bedrooms, bathrooms, clean_type, frequency, price_cents, quote, crew_id, lead_id, created_at)
        VALUES (${id}, ${pro.id}, 'pro', ${at(o.hour)}, ${at(o.hour + 1)}, ${at(o.hour + 1)}, ${o.name}, ${o.phone}, ${o.email}, '1 Main St', '10001',
                2, 1, 'standard', 'once', 10000, '{}'::jsonb, ${crew.id}, ${o.lead}, ${at(o.hour - 8)})`.execute(db);
      await insert('bk_1', { name: 'Ana', email: 'Ana@Example.com', phone: null, lead: null, hour: 9 });
      await insert('bk_2', { name: 'Ana Lima', email: 'ana@example.com ', phone: '212 555 0100', lead: null, hour: 11 });
      await insert('bk_3', { name: 'Bo Chen', email: null, phone: '+1 212.555.0199', lead: 'lead_direct', hour: 13 });
      await insert('bk_4', { name: 'Platform Pat', email: 'pat@example.com', phone: null, lead: 'lead_paid', hour: 15 });

      expect(await migrateToLatest(db)).toEqual([
        '20261127T140000-clients',
        '20261128T120000-customer-messages',
        '20261128T130000-on-my-way-and-agenda',
        '20261128T140000-properties',
        '20261128T150000-host-turnovers',
        '20261128T180000-turnover-property',
        '20261128T190000-stopped-rentals',
      ]);
      const clients = await sql<{ id: string; identity: string; name: string }>`SELECT id, identity, name FROM clients ORDER BY identity`.execute(db);
      expect(clients.rows.map((c) => [c.identity, c.name])).toEqual([
        ['email:ana@example.com', 'Ana Lima'],
        ['phone:2125550199', 'Bo Chen'],
      ]);
      const owners = await sql<{ id: string; client_id: string | null }>`
        SELECT id, client_id FROM bookings UNION ALL SELECT id, client_id FROM leads ORDER BY id`.execute(db);
      const [ana, bo] = [clients.rows[0]!.id, clients.rows[1]!.id];
      expect(owners.rows).toEqual([
        { id: 'bk_1', client_id: ana },
        { id: 'bk_2', client_id: ana },
        { id: 'bk_3', client_id: bo },
        { id: 'bk_4', client_id: null },
        { id: 'lead_direct', client_id: bo },
        { id: 'lead_paid', client_id: null },
      ]);
      expect(JSON.stringify((await sql`SELECT * FROM clients`.execute(db)).rows)).not.toMatch(/Pat|pat@/);
    });
  });
});
