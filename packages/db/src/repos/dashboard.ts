import type { Db } from '../connect';
import { hashSecret, newToken, secretHint } from '../secrets';
import type { Booking } from '../tables/bookings';
import type { CalendarFeed } from '../tables/dashboard';
import type { Pro } from '../tables/pros';

const DAY = 86_400_000;

/** Opens a dashboard session for a business; returns its token (only the hash is kept). */
export async function createProSession(db: Db, proId: string, expiresAt: Date, now: Date): Promise<string> {
  const token = newToken();
  await db
    .insertInto('pro_sessions')
    .values({ token_hash: hashSecret(token), pro_id: proId, expires_at: expiresAt, created_at: now })
    .execute();
  return token;
}

/** The business a live session belongs to. */
export async function proOfSession(db: Db, token: string, now: Date): Promise<Pro | undefined> {
  return db
    .selectFrom('pro_sessions as s')
    .innerJoin('pros as p', 'p.id', 's.pro_id')
    .selectAll('p')
    .where('s.token_hash', '=', hashSecret(token))
    .where('s.expires_at', '>', now)
    .executeTakeFirst();
}

export async function endProSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('pro_sessions').where('token_hash', '=', hashSecret(token)).execute();
}

/** Makes the business's calendar feed token, ending the one before; returns it once. */
export async function rotateCalendarFeed(db: Db, proId: string, now: Date): Promise<string> {
  const token = newToken();
  await db
    .insertInto('calendar_feeds')
    .values({ pro_id: proId, token_hash: hashSecret(token), token_hint: secretHint(token), created_at: now })
    .onConflict((oc) => oc.column('pro_id').doUpdateSet({ token_hash: hashSecret(token), token_hint: secretHint(token), created_at: now }))
    .execute();
  return token;
}

export async function calendarFeedOf(db: Db, proId: string): Promise<CalendarFeed | undefined> {
  return db.selectFrom('calendar_feeds').selectAll().where('pro_id', '=', proId).executeTakeFirst();
}

/** The business a calendar feed token opens. */
export async function proOfCalendarFeed(db: Db, token: string): Promise<Pro | undefined> {
  return db
    .selectFrom('calendar_feeds as f')
    .innerJoin('pros as p', 'p.id', 'f.pro_id')
    .selectAll('p')
    .where('f.token_hash', '=', hashSecret(token))
    .executeTakeFirst();
}

/**
 * The jobs a calendar feed lists: every job from a week ago on, and jobs cancelled in the
 * last 30 days as cancelled, so subscribed calendars drop them.
 */
export async function calendarBookings(db: Db, proId: string, now: Date, limit = 2000): Promise<Booking[]> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('pro_id', '=', proId)
    .where('ends_at', '>', new Date(now.getTime() - 7 * DAY))
    .where((eb) => eb.or([eb('status', '<>', 'cancelled'), eb('cancelled_at', '>', new Date(now.getTime() - 30 * DAY))]))
    .orderBy('starts_at')
    .limit(limit)
    .execute();
}

/** Ends every dashboard session of a business (its owner address changed). */
export async function endProSessionsOf(trx: Db, proId: string): Promise<void> {
  await trx.deleteFrom('pro_sessions').where('pro_id', '=', proId).execute();
}
