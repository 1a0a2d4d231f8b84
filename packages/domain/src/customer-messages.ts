import { fields, integer, listOf, nullable, type Static } from './schema';
import { singleLine } from './plain-text';
import { remindersListedTwice, reviewLinkNotHttps } from './words/customer-messages';

/**
 * The routine messages a business sends its customers on its own: reminders before a job and
 * a review request after it. The settings' shapes are declared here once (update_business
 * takes them, my_business shows them); when each message is owed is the rules below.
 */
export const MAX_CUSTOMER_REMINDERS = 2;
export const REMINDER_HOURS = { min: 1, max: 168 } as const;
export const DEFAULT_REMINDER_HOURS = [24] as const;
export const REVIEW_DELAY_HOURS = { min: 1, max: 72 } as const;
export const DEFAULT_REVIEW_DELAY_HOURS = 2;
/** A reminder already past when the job was booked (or the setting changed) goes at once only when the job is at least this far off. */
export const LATE_REMINDER_MIN_LEAD_HOURS = 12;
/** A review request still unsent this long after its time (a long outage) is no longer sent. */
export const REVIEW_REQUEST_STALE_HOURS = 7 * 24;

const HOUR = 3_600_000;

export const customerRemindersSchema = listOf(integer({ minimum: REMINDER_HOURS.min, maximum: REMINDER_HOURS.max }), {
  maxItems: MAX_CUSTOMER_REMINDERS,
  description: 'Hours before a job to email its customer a reminder; [] for none.',
});

export const reviewRequestSchema = nullable(
  fields(
    {
      link: singleLine({ maxLength: 300, description: 'Your review page, https://…' }),
      delay_hours: integer({ minimum: REVIEW_DELAY_HOURS.min, maximum: REVIEW_DELAY_HOURS.max, description: 'Hours after the job ends.' }),
    },
    ['link', 'delay_hours'],
    { description: 'A review request after each job; null for none.' },
  ),
);

/** The routine-message settings update_business takes and my_business shows (one more goes beside them here). */
export const customerMessageSettingsSchemas = {
  customer_reminders: customerRemindersSchema,
  review_request: reviewRequestSchema,
};

export type ReviewRequestSetting = Static<typeof reviewRequestSchema>;

/** The stored form: the offsets, the review link (null: off) and its delay. */
export interface CustomerMessageSettings {
  customer_reminder_hours: number[];
  review_link: string | null;
  review_delay_hours: number;
}

/** The offsets as stored: each once, farthest first. */
export function checkReminderHours(hours: readonly number[]): number[] {
  if (new Set(hours).size !== hours.length) throw remindersListedTwice();
  return [...hours].sort((a, b) => b - a);
}

/** A review page: an https address on a named host, without credentials. */
export function checkReviewLink(link: string): string {
  const w = link.trim();
  let url: URL | null = null;
  try {
    url = new URL(w);
  } catch {
    url = null;
  }
  if (!url || url.protocol !== 'https:' || !url.hostname.includes('.') || url.username || url.password) throw reviewLinkNotHttps(w);
  return url.href;
}

/** The review request as my_business shows it. */
export const presentReviewRequest = (s: CustomerMessageSettings): ReviewRequestSetting =>
  s.review_link === null ? null : { link: s.review_link, delay_hours: s.review_delay_hours };

/** A job's reminder owed at `at` for the offset it names. */
export interface OwedReminder {
  offsetHours: number;
  at: Date;
}

/**
 * The reminders a live job is owed, and when. Each offset falls due at start minus its
 * hours. One that was already past when the job got its start (booked or moved) or when the
 * owner last changed the reminders goes at once instead, but only the nearest such one, and
 * only when the job was then at least 12 hours off (closer, the confirmation serves). A job
 * that has started is owed none.
 */
export function remindersOwed(j: { offsets: readonly number[]; start: Date; startSetAt: Date; settingSetAt: Date | null; now: Date }): OwedReminder[] {
  const start = j.start.getTime();
  if (j.now.getTime() >= start) return [];
  const known = Math.max(j.startSetAt.getTime(), j.settingSetAt?.getTime() ?? Number.NEGATIVE_INFINITY);
  const owed: OwedReminder[] = [];
  const late = j.offsets.filter((h) => start - h * HOUR < known);
  for (const h of j.offsets) {
    const due = start - h * HOUR;
    if (due >= known) owed.push({ offsetHours: h, at: new Date(due) });
  }
  const nearestLate = late.length ? Math.min(...late) : null;
  if (nearestLate !== null && start - known >= LATE_REMINDER_MIN_LEAD_HOURS * HOUR) owed.push({ offsetHours: nearestLate, at: new Date(known) });
  return owed;
}

/**
 * When a finished job's review request is owed, or null: never for a request whose time had
 * passed before the owner turned requests on (old customers are not mailed), nor one left
 * unsent a week past its time.
 */
export function reviewRequestOwed(j: { end: Date; delayHours: number; settingSetAt: Date | null; now: Date }): Date | null {
  const at = j.end.getTime() + j.delayHours * HOUR;
  if (j.settingSetAt !== null && j.settingSetAt.getTime() > at) return null;
  if (j.now.getTime() > at + REVIEW_REQUEST_STALE_HOURS * HOUR) return null;
  return new Date(at);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * A plain mail's HTML part: the same words, each paragraph a paragraph, every value escaped
 * and each https address (ours or the business's own review page) a link. No images, no
 * styles from elsewhere, nothing that reports the mail was opened.
 */
export function mailHtml(text: string): string {
  const paragraph = (p: string) =>
    p
      .split('\n')
      .map((line) => (/^https?:\/\/\S+$/.test(line) ? `<a href="${escapeHtml(line)}">${escapeHtml(line)}</a>` : escapeHtml(line)))
      .join('<br>');
  const body = text
    .trim()
    .split(/\n{2,}/)
    .map((p) => `<p>${paragraph(p)}</p>`)
    .join('\n');
  return `<!doctype html>\n<html><head><meta charset="utf-8"></head><body>\n${body}\n</body></html>\n`;
}
