import { DAY_MS } from '@frontdesk/domain';
import type { Db } from '../connect';
import { hashSecret, issueSecret, newToken } from '../secrets';
import { proOwning } from './pros';
import type { Booking } from '../tables/bookings';
import type { Crew } from '../tables/crews';
import type { CrewCalendarFeed } from '../tables/crew-calendar-feeds';
import type { CalendarFeed } from '../tables/calendar-feeds';
import type { Pro } from '../tables/pros';

/** Opens a dashboard session for a business; returns its token (only the hash is kept). */
export async function createProSession(db: Db, proId: string, expiresAt: Date, now: Date): Promise<string> {
  return issueSecret(newToken(), (token_hash) =>
    db.insertInto('pro_sessions').values({ token_hash, pro_id: proId, expires_at: expiresAt, created_at: now }).execute(),
  );
}

/** The business a live session belongs to. */
export async function proOfSession(db: Db, token: string, now: Date): Promise<Pro | undefined> {
  return proOwning(db, db.selectFrom('pro_sessions').select('pro_id').where('token_hash', '=', hashSecret(token)).where('expires_at', '>', now));
}

export async function endProSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('pro_sessions').where('token_hash', '=', hashSecret(token)).execute();
}

/** Makes the business's calendar feed token, ending the one before; returns it once. */
export async function rotateCalendarFeed(db: Db, proId: string, now: Date): Promise<string> {
  return issueSecret(newToken(), (token_hash, token_hint) => {
    const feed = { token_hash, token_hint, created_at: now };
    return db
      .insertInto('calendar_feeds')
      .values({ pro_id: proId, ...feed })
      .onConflict((oc) => oc.column('pro_id').doUpdateSet(feed))
      .execute();
  });
}

export async function calendarFeedOf(db: Db, proId: string): Promise<CalendarFeed | undefined> {
  return db.selectFrom('calendar_feeds').selectAll().where('pro_id', '=', proId).executeTakeFirst();
}

/** The business a calendar feed token opens. */
export async function proOfCalendarFeed(db: Db, token: string): Promise<Pro | undefined> {
  return proOwning(db, db.selectFrom('calendar_feeds').select('pro_id').where('token_hash', '=', hashSecret(token)));
}

/**
 * The jobs a calendar feed lists: every job from a week ago on, and jobs cancelled in the
 * last 30 days as cancelled, so subscribed calendars drop them; with `crewId`, one crew's only.
 */
export async function calendarBookings(db: Db, proId: string, now: Date, o: { limit?: number; crewId?: string } = {}): Promise<Booking[]> {
  const { limit = 2000, crewId } = o;
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('pro_id', '=', proId)
    .$if(crewId !== undefined, (q) => q.where('crew_id', '=', crewId!))
    .where('ends_at', '>', new Date(now.getTime() - 7 * DAY_MS))
    .where((eb) => eb.or([eb('status', '<>', 'cancelled'), eb('cancelled_at', '>', new Date(now.getTime() - 30 * DAY_MS))]))
    .orderBy('starts_at')
    .limit(limit)
    .execute();
}

/** Ends every dashboard session of a business (its owner address changed). */
export async function endProSessionsOf(trx: Db, proId: string): Promise<void> {
  await trx.deleteFrom('pro_sessions').where('pro_id', '=', proId).execute();
}

/** Makes a crew's own calendar feed token, ending the one before; returns it once. */
export async function rotateCrewCalendarFeed(db: Db, proId: string, crewId: string, now: Date): Promise<string> {
  return issueSecret(newToken(), (token_hash, token_hint) => {
    const feed = { token_hash, token_hint, created_at: now };
    return db
      .insertInto('crew_calendar_feeds')
      .values({ crew_id: crewId, pro_id: proId, ...feed })
      .onConflict((oc) => oc.column('crew_id').doUpdateSet(feed))
      .execute();
  });
}

/** The live calendar feeds of a business's crews. */
export async function crewCalendarFeedsOf(db: Db, proId: string): Promise<CrewCalendarFeed[]> {
  return db.selectFrom('crew_calendar_feeds').selectAll().where('pro_id', '=', proId).execute();
}

/** The business and crew (not removed) a crew's calendar feed token opens. */
export async function crewOfCalendarFeed(db: Db, token: string): Promise<{ pro: Pro; crew: Crew } | undefined> {
  const feed = db.selectFrom('crew_calendar_feeds').select('crew_id').where('token_hash', '=', hashSecret(token));
  const crew = await db.selectFrom('crews').selectAll().where('id', '=', feed).where('removed_at', 'is', null).executeTakeFirst();
  if (!crew) return undefined;
  const pro = await db.selectFrom('pros').selectAll().where('id', '=', crew.pro_id).executeTakeFirstOrThrow();
  return { pro, crew };
}
