import { OWNER_AGENDA_LATE_HOURS } from './policy';
import { localDate, minutesOfDay, wallTimeOrNextInstant, type LocalDate } from './time';
import { onMyWayCancelled, onMyWayEnded, onMyWayNoEmail, onMyWayNoShow, onMyWayNotToday, onMyWayPlatformLead } from './words/routine-mail';

/**
 * The routine messages the business sends without writing them: "on my way" to a job's
 * customer when the owner asks, and the owner's (and crews') morning agenda.
 */

/** What "on my way" needs to know about a job. */
export interface OnMyWayJob {
  id: string;
  status: 'booked' | 'cancelled' | 'no_show';
  starts_at: Date;
  ends_at: Date;
  customer_email: string | null;
}

/**
 * Where a job's "on my way" mail goes, or the refusal: only a live job of today (in the
 * business's zone) that has not ended, to the customer's email, never a platform lead's
 * customer (rule 6 of the pro interface: they are reached inside the platform).
 */
export function onMyWayAddress(job: OnMyWayJob, o: { label: string; zone: string; now: Date; platformLead: boolean }): string {
  if (job.status === 'cancelled') throw onMyWayCancelled(job.id, o.label);
  if (job.status === 'no_show') throw onMyWayNoShow(job.id, o.label);
  if (job.ends_at.getTime() <= o.now.getTime()) throw onMyWayEnded(job.id, o.label);
  if (localDate(job.starts_at, o.zone) !== localDate(o.now, o.zone)) throw onMyWayNotToday(job.id, o.label);
  if (o.platformLead) throw onMyWayPlatformLead(job.id);
  const to = job.customer_email?.trim();
  if (!to) throw onMyWayNoEmail(job.id, o.label);
  return to;
}

/**
 * The agenda due now for a business whose agenda time is `at` (HH:MM, local), or null: its
 * local day and the instant it came due. It comes due at that wall time (on a spring-forward
 * day a time in the gap is the first instant after it; on a fall-back day a time that happens
 * twice is its first), and is `late` past OWNER_AGENDA_LATE_HOURS, when it is skipped.
 */
export function agendaDue(now: Date, o: { zone: string; at: string | null }): { day: LocalDate; dueAt: Date; late: boolean } | null {
  if (o.at === null) return null;
  const day = localDate(now, o.zone);
  const dueAt = wallTimeOrNextInstant(day, minutesOfDay(o.at), o.zone);
  if (now.getTime() < dueAt.getTime()) return null;
  return { day, dueAt, late: now.getTime() - dueAt.getTime() > OWNER_AGENDA_LATE_HOURS * 3_600_000 };
}
