import { DAY_MS, DASHBOARD_SESSION_HOURS, holdGoneWhy, localDate, noCrew } from '@frontdesk/domain';
import {
  bookedBetween,
  calendarFeedOf,
  crewCalendarFeedsOf,
  crewOf,
  rotateCrewCalendarFeed,
  createProSession,
  endProSession,
  findBooking,
  getPro,
  holdOfPro,
  markSeenOnDashboard,
  proOfSession,
  proOwnedBy,
  recentNotifications,
  rotateCalendarFeed,
  unseenOnDashboard,
  upcomingTimeOff,
  type Booking,
  type CrewCalendarFeed,
  type Db,
  type NamedHold,
  type Pro,
  type SecretHashKeys,
} from '@frontdesk/db';
import { listCrews } from './crews';
import { followUpsDue } from './follow-ups-due';
import { pencilledIn } from './holds';
import { pipelineReport } from './pipeline';
import { verifySignInCode } from './sign-in';

/** The business's dashboard: signing its owner in, what the page shows, and the writes that are not operations. */

/**
 * Signs an owner in by the emailed code: the business the verified address signed up, and a
 * session token for it (only its hash is kept); `pro` is null when the address owns none.
 */
export async function openDashboardSession(
  db: Db,
  o: { email: string; code: string; now: Date; keys: SecretHashKeys },
): Promise<{ email: string; pro: Pro | null; token: string | null }> {
  const email = await verifySignInCode(db, o.email, o.code, { now: o.now, keys: o.keys });
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

/**
 * The jobs a dashboard lists: today's (those that ended too, so a no-show can be reported
 * the same day, and those reported as no-shows today, which stay marked as such) and every
 * live one still ahead, soonest first.
 */
export async function dashboardJobs(db: Db, pro: Pro, now: Date, crewId?: string): Promise<Booking[]> {
  const today = localDate(now, pro.timezone);
  const jobs = await bookedBetween(db, pro.id, { from: new Date(now.getTime() - DAY_MS), to: null, noShows: true });
  const isToday = (b: Booking) => localDate(b.starts_at, pro.timezone) === today;
  return jobs.filter((b) => (crewId === undefined || b.crew_id === crewId) && (b.status === 'no_show' ? isToday(b) : b.ends_at > now || isToday(b)));
}

/**
 * The times the business pencilled in on its own host that still count (the live rule of the
 * queries: not released, not used, not expired), today's and those ahead, soonest first; one
 * crew's when named.
 */
export async function dashboardHolds(db: Db, pro: Pro, now: Date, crewId?: string): Promise<NamedHold[]> {
  const today = localDate(now, pro.timezone);
  const holds = await pencilledIn(db, pro.id);
  return holds.filter((h) => (crewId === undefined || h.crew_id === crewId) && (h.ends_at > now || localDate(h.starts_at, pro.timezone) === today));
}

/**
 * A time the business pencilled in on its own host, and why it no longer counts: null while it
 * is live by the queries' rule (a start already passed still keeps the crew's time until it
 * runs out, so it can still be released); undefined when it is not the business's.
 */
export async function dashboardHold(db: Db, pro: Pro, holdId: string, now: Date) {
  const hold = await holdOfPro(db, pro.id, 'pro', holdId);
  return hold && { hold, gone: hold.live ? null : holdGoneWhy(hold, now) };
}

/** The crews page: each crew with its upcoming jobs and its calendar address (if it has one), and the time off ahead. */
export async function dashboardCrews(db: Db, pro: Pro, now: Date) {
  const [{ crews, upcoming }, feeds, timeOff] = await Promise.all([
    listCrews(db, pro.id, now),
    crewCalendarFeedsOf(db, pro.id),
    upcomingTimeOff(db, pro.id, now),
  ]);
  return { crews, upcoming, feeds: new Map<string, CrewCalendarFeed>(feeds.map((f) => [f.crew_id, f])), timeOff };
}

/** Makes a crew's own calendar address (for the cleaner's phone), ending the one before; returns its token once. */
export async function newCrewCalendarAddress(db: Db, proId: string, crewId: string, now: Date): Promise<string> {
  if (!(await crewOf(db, proId, crewId))) throw noCrew(crewId);
  return rotateCrewCalendarFeed(db, proId, crewId, now);
}

/** Today's page: the jobs and the times pencilled in for today, what is new since the owner last looked, what happened lately, follow-ups due. */
export async function dashboardToday(db: Db, pro: Pro, o: { bookingUrl: string; now: Date; crewId?: string }) {
  const [jobs, holds, notifications, activity, followUps] = await Promise.all([
    dashboardJobs(db, pro, o.now, o.crewId),
    dashboardHolds(db, pro, o.now, o.crewId),
    unseenOnDashboard(db, pro.id),
    recentNotifications(db, pro.id),
    followUpsDue(db, pro, o.bookingUrl, o.now),
  ]);
  const today = localDate(o.now, pro.timezone);
  return { jobs, holds: holds.filter((h) => localDate(h.starts_at, pro.timezone) === today), notifications, activity, followUps };
}

/** Follow-ups due, with their drafts. */
export function dashboardFollowUps(db: Db, pro: Pro, o: { bookingUrl: string; now: Date }) {
  return followUpsDue(db, pro, o.bookingUrl, o.now);
}

/** This month's pipeline, in the business's zone. */
export function dashboardMonth(db: Db, pro: Pro, now: Date) {
  return pipelineReport(db, pro, localDate(now, pro.timezone).slice(0, 7));
}

/** What the settings and keys pages show besides the profile: time off ahead, the calendar feed. */
export async function dashboardSettings(db: Db, pro: Pro, now: Date) {
  const [timeOff, calendar] = await Promise.all([upcomingTimeOff(db, pro.id, now), calendarFeedOf(db, pro.id)]);
  return { timeOff, calendar };
}

/** One job of the business (another business's id finds nothing). */
export function dashboardJob(db: Db, proId: string, bookingId: string): Promise<Booking | undefined> {
  return findBooking(db, proId, bookingId);
}

/** Makes the business's calendar feed address, ending the one before; returns its token once. */
export function newCalendarAddress(db: Db, proId: string, now: Date): Promise<string> {
  return rotateCalendarFeed(db, proId, now);
}

/**
 * Dismisses notifications of the business on the dashboard; another business's ids change
 * nothing. The assistant's own read state (schedule's) is left as it is, and the reverse.
 */
export function markNotificationsSeen(db: Db, proId: string, ids: string[], now: Date): Promise<void> {
  return markSeenOnDashboard(db, proId, ids, now);
}
