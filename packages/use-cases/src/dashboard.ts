import { DASHBOARD_SESSION_HOURS, localDate } from '@frontdesk/domain';
import {
  calendarFeedOf,
  createProSession,
  endProSession,
  getPro,
  markNotificationsRead,
  proOfSession,
  proOwnedBy,
  rotateCalendarFeed,
  unreadNotifications,
  upcomingBookings,
  upcomingTimeOff,
  type Db,
  type Pro,
} from '@frontdesk/db';
import { followUpsDue } from './follow-ups-due';
import { pipelineReport } from './pipeline';
import { verifySignInCode } from './sign-in';

/** The business's dashboard: signing its owner in, what the page shows, and the writes that are not operations. */

/**
 * Signs an owner in by the emailed code: the business the verified address signed up, and a
 * session token for it (only its hash is kept); `pro` is null when the address owns none.
 */
export async function openDashboardSession(
  db: Db,
  o: { email: string; code: string; now: Date },
): Promise<{ email: string; pro: Pro | null; token: string | null }> {
  const email = await verifySignInCode(db, o.email, o.code, o.now);
  const pro = (await proOwnedBy(db, email)) ?? null;
  if (!pro) return { email, pro, token: null };
  const token = await createProSession(db, pro.id, new Date(o.now.getTime() + DASHBOARD_SESSION_HOURS * 3_600_000), o.now);
  return { email, pro, token };
}

/** The business a live dashboard session belongs to. */
export function dashboardOwner(db: Db, token: string, now: Date): Promise<Pro | undefined> {
  return proOfSession(db, token, now);
}

export function endDashboardSession(db: Db, token: string): Promise<void> {
  return endProSession(db, token);
}

/** The business as it is now (after a change the page made). */
export function businessById(db: Db, proId: string): Promise<Pro | undefined> {
  return getPro(db, proId);
}

/** Everything the dashboard shows, read at once. */
export async function dashboardView(db: Db, pro: Pro, o: { bookingUrl: string; now: Date }) {
  const { now } = o;
  const [jobs, notifications, followUps, pipeline, timeOff, calendar] = await Promise.all([
    upcomingBookings(db, pro.id, now),
    unreadNotifications(db, pro.id),
    followUpsDue(db, pro, o.bookingUrl, now),
    pipelineReport(db, pro, localDate(now, pro.timezone).slice(0, 7)),
    upcomingTimeOff(db, pro.id, now),
    calendarFeedOf(db, pro.id),
  ]);
  return { jobs, notifications, followUps, pipeline, timeOff, calendar };
}

/** Makes the business's calendar feed address, ending the one before; returns its token once. */
export function newCalendarAddress(db: Db, proId: string, now: Date): Promise<string> {
  return rotateCalendarFeed(db, proId, now);
}

/** Dismisses notifications of the business (at most `max` at once); another business's ids change nothing. */
export function markNotificationsSeen(db: Db, proId: string, ids: string[], now: Date): Promise<void> {
  return markNotificationsRead(db, proId, ids, now);
}
