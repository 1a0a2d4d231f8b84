import { sql } from 'kysely';
import type { Db } from '../connect';
import type { Hold, HoldHost, NewHold } from '../tables/holds';
import type { Pro } from '../tables/pros';

/** What a caller decides about a new hold; its times of taking and expiry are the database's. */
export type HoldFields = Omit<NewHold, 'expires_at' | 'created_at' | 'released_at' | 'used_at' | 'booking_id'>;

/**
 * Writes a hold lasting `minutes` from the database's now(): the triggers on holds and bookings
 * refuse it (23P01, as the overlap constraint) when a live booking or hold of its crew overlaps.
 */
export async function insertHold(trx: Db, fields: HoldFields, minutes: number): Promise<Hold & { crew_name: string }> {
  // The crew's name comes back with the row: one statement, not a read after it.
  return trx
    .with('h', (db) =>
      db
        .insertInto('holds')
        .values({ ...fields, expires_at: sql<Date>`now() + make_interval(mins => ${minutes})`, released_at: null, used_at: null, booking_id: null })
        .returningAll(),
    )
    .selectFrom('h')
    .innerJoin('crews as c', (j) => j.onRef('c.pro_id', '=', 'h.pro_id').onRef('c.id', '=', 'h.crew_id'))
    .selectAll('h')
    .select('c.name as crew_name')
    .executeTakeFirstOrThrow();
}

/** A hold's timestamps as to_jsonb spells them (ISO strings), made Dates again. */
const holdTimeColumns = ['starts_at', 'ends_at', 'blocked_until', 'expires_at', 'created_at', 'released_at', 'used_at'] as const;
const holdFromJson = (row: Record<string, unknown>): Hold =>
  ({ ...row, ...Object.fromEntries(holdTimeColumns.map((k) => [k, row[k] === null ? null : new Date(row[k] as string)])) }) as Hold;

/**
 * A booking's first statement when it books from a hold: the pro's row locked, then (the lock
 * order everywhere) the hold used up by booking `bookingId` if it is the pro's and still live by
 * the database's clock. Returns the pro (undefined when there is none) and the hold as it was
 * before this use, or no hold when it was not used (missing, another pro's, or gone: the caller
 * reads it to say why). The caller's checks of the hold (its owner, start, job, total) come
 * after: a refusal throws, and the transaction's rollback takes the use back.
 */
export async function lockProUsingHold(trx: Db, proId: string, holdId: string, bookingId: string): Promise<{ pro: Pro; used: Hold | undefined } | undefined> {
  const { rows } = await sql<Pro & { used_hold: Record<string, unknown> | null }>`
    WITH p AS (SELECT * FROM pros WHERE id = ${proId} FOR UPDATE),
    u AS (
      UPDATE holds SET used_at = now(), booking_id = ${bookingId}
       WHERE id = ${holdId} AND pro_id = (SELECT id FROM p) AND ${holdIsLive('holds')}
      RETURNING holds.*
    )
    SELECT p.*, (SELECT to_jsonb(u) FROM u) AS used_hold FROM p`.execute(trx);
  const row = rows[0];
  if (!row) return undefined;
  const { used_hold: used, ...pro } = row;
  return { pro, used: used ? { ...holdFromJson(used), used_at: null, booking_id: null } : undefined };
}

/**
 * A hold still counts: neither released nor used, and not expired by the database's clock (no
 * worker has to run for a hold to stop counting). The one statement of it the queries use; the
 * triggers of migration 20261126T120000-holds say the same in PL/pgSQL.
 */
export const holdIsLive = (table: 'holds' | 'h') =>
  sql<boolean>`${sql.ref(`${table}.released_at`)} IS NULL AND ${sql.ref(`${table}.used_at`)} IS NULL AND ${sql.ref(`${table}.expires_at`)} > now()`;

/** A hold by id, with whether it is still live by the database's clock. */
const holdWithLiveness = (db: Db, id: string) => db.selectFrom('holds').selectAll().select(holdIsLive('holds').as('live')).where('id', '=', id);

/** A hold of a pro, locked, with whether it is still live by the database's clock. */
export async function lockHold(trx: Db, id: string): Promise<(Hold & { live: boolean }) | undefined> {
  return holdWithLiveness(trx, id).forUpdate().executeTakeFirst();
}

/** A hold by id, read without a lock, with whether it is still live. */
export async function findHold(db: Db, id: string): Promise<(Hold & { live: boolean }) | undefined> {
  return holdWithLiveness(db, id).executeTakeFirst();
}

/** The live holds one owner credential has on a pro (a booking page's visitor has one at a time). */
export async function liveHoldsOwnedBy(db: Db, proId: string, credential: string): Promise<Hold[]> {
  return db.selectFrom('holds').selectAll().where('pro_id', '=', proId).where('owner_credential', '=', credential).where(holdIsLive('holds')).execute();
}

/** How many holds one owner credential has ever taken on a pro, live or gone: a new pick after one is let go is a new pick. */
export async function holdsTakenBy(db: Db, proId: string, credential: string): Promise<number> {
  const row = await db
    .selectFrom('holds')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('pro_id', '=', proId)
    .where('owner_credential', '=', credential)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks a hold used by the booking made from it (in that booking's transaction). */
export async function markHoldUsed(trx: Db, id: string, bookingId: string): Promise<void> {
  await trx
    .updateTable('holds')
    .set({ used_at: sql<Date>`now()`, booking_id: bookingId })
    .where('id', '=', id)
    .execute();
}

/** Releases a hold not yet released or used; one already gone is left as it is. */
export async function markHoldReleased(db: Db, id: string): Promise<void> {
  await db
    .updateTable('holds')
    .set({ released_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('released_at', 'is', null)
    .where('used_at', 'is', null)
    .execute();
}

/** A pro's holds taken on one host, each with its crew's name, its lead's first name and whether it is still live. */
const holdsOfPro = (db: Db, proId: string, host: HoldHost) =>
  db
    .selectFrom('holds as h')
    .innerJoin('crews as c', 'c.id', 'h.crew_id')
    .leftJoin('leads as l', 'l.id', 'h.lead_id')
    .selectAll('h')
    .select(['c.name as crew_name', 'l.customer_first_name as lead_name', holdIsLive('h').as('live')])
    .where('h.pro_id', '=', proId)
    .where('h.host', '=', host);

/** A hold with its crew's name, its lead's first name and whether it is still live. */
export type NamedHold = Hold & { crew_name: string; lead_name: string | null; live: boolean };

/** A pro's live holds taken on one host, soonest start first, each with its crew's name and its lead's first name. */
export async function liveHolds(db: Db, proId: string, host: HoldHost, limit = 100): Promise<NamedHold[]> {
  return holdsOfPro(db, proId, host).where(holdIsLive('h')).orderBy('h.starts_at').limit(limit).execute();
}

/** One hold a pro took on one host, live or not (another pro's or host's id finds nothing). */
export async function holdOfPro(db: Db, proId: string, host: HoldHost, id: string): Promise<NamedHold | undefined> {
  return holdsOfPro(db, proId, host).where('h.id', '=', id).executeTakeFirst();
}
