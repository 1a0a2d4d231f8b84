import { sql } from 'kysely';
import type { Db } from '../connect';
import type { Hold, HoldHost, NewHold } from '../tables/holds';

/** What a caller decides about a new hold; its times of taking and expiry are the database's. */
export type HoldFields = Omit<NewHold, 'expires_at' | 'created_at' | 'released_at' | 'used_at' | 'booking_id'>;

/**
 * Writes a hold lasting `minutes` from the database's now(): the triggers on holds and bookings
 * refuse it (23P01, as the overlap constraint) when a live booking or hold of its crew overlaps.
 */
export async function insertHold(trx: Db, fields: HoldFields, minutes: number): Promise<Hold> {
  return trx
    .insertInto('holds')
    .values({ ...fields, expires_at: sql<Date>`now() + make_interval(mins => ${minutes})`, released_at: null, used_at: null, booking_id: null })
    .returningAll()
    .executeTakeFirstOrThrow();
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
