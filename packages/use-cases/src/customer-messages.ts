import {
  REVIEW_DELAY_HOURS,
  REVIEW_REQUEST_STALE_HOURS,
  formatLabel,
  formatLocalIso,
  mailHtml,
  reminderMail,
  reminderSentMessage,
  remindersOwed,
  reviewRequestMail,
  reviewRequestOwed,
  reviewRequestSentMessage,
  type MailText,
  type OwedReminder,
} from '@frontdesk/domain';
import {
  appendEvent,
  bookingById,
  claimCustomerMessage,
  enqueueMail,
  isUnsubscribed,
  lockPro,
  mintUnsubscribeToken,
  reminderCandidates,
  reviewCandidates,
  type Booking,
  type CustomerMessageKind,
  type Db,
  type Pro,
  type ReminderCandidate,
  addUnsubscribe,
  messagesSentFor,
  unsubscribeLinkOf,
} from '@frontdesk/db';
import { mailedBooking, moveMailAddress } from './booking-mail';

/**
 * Reminders before a job and review requests after it, materialized when they come due. Each
 * message is claimed under a unique key (job, kind, offset, start) in the transaction that
 * queues its mail and writes its event, so any number of replicas, ticks and restarts send it
 * once; a tick that fails (the database away) leaves it owed for the next one. Each is judged
 * again under the business's row lock, from the job as it is then: a job cancelled, moved or
 * reported a no-show in between gets nothing for the old state.
 */

const HOUR = 3_600_000;

/** Where a routine mail points: the book host, which serves the unsubscribe page. */
export interface CustomerMessageLinks {
  bookingUrl: string;
}

export const unsubscribeUrl = (links: CustomerMessageLinks, token: string) => `${links.bookingUrl}/unsubscribe/${token}`;

/** RFC 8058: a mail program's one-click unsubscribe posts to the same link. */
const unsubscribeHeaders = (url: string) => ({ 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });

interface Claim {
  pro: Pro;
  booking: Booking;
  kind: CustomerMessageKind;
  offsetHours: number;
  now: Date;
}

/**
 * Claims the message and, when it may go, queues it with its unsubscribe link: a platform
 * lead's customer and an address that unsubscribed get nothing (the claim is kept as skipped,
 * so it is judged once). True when a mail was queued.
 */
async function claimAndQueue(trx: Db, c: Claim, links: CustomerMessageLinks, write: (unsubscribe: string) => MailText): Promise<boolean> {
  const { pro, booking: b, now } = c;
  const to = await moveMailAddress(trx, b);
  const skipped = to === null || (await isUnsubscribed(trx, pro.id, to));
  const claimed = await claimCustomerMessage(trx, {
    proId: pro.id,
    bookingId: b.id,
    kind: c.kind,
    offsetHours: c.offsetHours,
    startsAt: b.starts_at,
    now,
    skipped,
  });
  if (!claimed || skipped) return false;
  const url = unsubscribeUrl(links, await mintUnsubscribeToken(trx, { proId: pro.id, email: to, now }));
  const mail = write(url);
  await enqueueMail(trx, { to, ...mail, html: mailHtml(mail.text), headers: unsubscribeHeaders(url), secret: true, now });
  return true;
}

const eventFields = (b: Booking, pro: Pro) => ({
  booking_id: b.id,
  start: formatLocalIso(b.starts_at, pro.timezone),
  label: formatLabel(b.starts_at, pro.timezone),
  customer_name: b.customer_name,
});

/** One reminder, if it is still owed under the lock: the job live, at the same start, the setting still on. */
async function sendReminder(db: Db, c: ReminderCandidate, owed: OwedReminder, o: { links: CustomerMessageLinks; now: Date }): Promise<boolean> {
  const { now } = o;
  return db.transaction().execute(async (trx) => {
    const pro = await lockPro(trx, c.pro_id);
    const b = await bookingById(trx, c.id);
    if (!pro || !b || b.status !== 'booked' || b.starts_at.getTime() !== c.starts_at.getTime()) return false;
    const owedNow = remindersOwed({
      offsets: pro.customer_reminder_hours,
      start: b.starts_at,
      startSetAt: b.start_set_at,
      settingSetAt: pro.customer_reminders_set_at,
      now,
    });
    if (!owedNow.some((r) => r.offsetHours === owed.offsetHours && r.at.getTime() <= now.getTime())) return false;
    const claim = { pro, booking: b, kind: 'reminder' as const, offsetHours: owed.offsetHours, now };
    const mailed = { ...mailedBooking(b, pro), pets: b.pets };
    const sent = await claimAndQueue(trx, claim, o.links, (url) => reminderMail(mailed, { hasBookingPage: b.manage_token_hash !== null, unsubscribeUrl: url }));
    if (!sent) return false;
    const fields = eventFields(b, pro);
    const payload = { ...fields, hours_before: owed.offsetHours, message: reminderSentMessage(b.customer_name, fields.label, owed.offsetHours) };
    await appendEvent(trx, pro.id, { kind: 'reminder.sent', payload, at: now });
    return true;
  });
}

/** One review request, if still owed under the lock: the job done (not cancelled, no no-show), requests still on. */
async function sendReviewRequest(db: Db, bookingId: string, o: { links: CustomerMessageLinks; now: Date }): Promise<boolean> {
  const { now } = o;
  return db.transaction().execute(async (trx) => {
    const first = await bookingById(trx, bookingId);
    const pro = first && (await lockPro(trx, first.pro_id));
    const b = pro && (await bookingById(trx, bookingId));
    if (!pro || !b || b.status !== 'booked' || pro.review_link === null || b.ends_at.getTime() > now.getTime()) return false;
    const at = reviewRequestOwed({ end: b.ends_at, delayHours: pro.review_delay_hours, settingSetAt: pro.review_request_set_at, now });
    if (!at || at.getTime() > now.getTime()) return false;
    const link = pro.review_link;
    const claim = { pro, booking: b, kind: 'review_request' as const, offsetHours: 0, now };
    const names = { proName: pro.name, customerName: b.customer_name };
    if (!(await claimAndQueue(trx, claim, o.links, (url) => reviewRequestMail(names, { reviewLink: link, unsubscribeUrl: url })))) return false;
    const fields = eventFields(b, pro);
    await appendEvent(trx, pro.id, {
      kind: 'review_request.sent',
      payload: { ...fields, message: reviewRequestSentMessage(b.customer_name, fields.label) },
      at: now,
    });
    return true;
  });
}

/**
 * The reminders owed by now among the jobs whose reminder time has come. One whose time came
 * but that is not owed (past when booked: a nearer one went instead, or the job was then
 * within 12 hours) is kept as skipped, so the job stops being looked at for it.
 */
async function dueReminders(db: Db, now: Date) {
  const due: { c: ReminderCandidate; owed: OwedReminder }[] = [];
  for (const c of await reminderCandidates(db, now)) {
    const owed = remindersOwed({ offsets: c.reminder_hours, start: c.starts_at, startSetAt: c.start_set_at, settingSetAt: c.reminders_set_at, now });
    for (const r of owed) if (r.at.getTime() <= now.getTime() && !c.sent_offsets.includes(r.offsetHours)) due.push({ c, owed: r });
    const never = c.reminder_hours.filter(
      (h) => c.starts_at.getTime() - h * HOUR <= now.getTime() && !c.sent_offsets.includes(h) && !owed.some((r) => r.offsetHours === h),
    );
    for (const h of never) {
      await claimCustomerMessage(db, { proId: c.pro_id, bookingId: c.id, kind: 'reminder', offsetHours: h, startsAt: c.starts_at, now, skipped: true });
    }
  }
  return due;
}

/** The review requests owed by now. */
async function dueReviewRequests(db: Db, now: Date): Promise<{ id: string; proId: string }[]> {
  const lookBackHours = REVIEW_DELAY_HOURS.max + REVIEW_REQUEST_STALE_HOURS;
  return (await reviewCandidates(db, now, { lookBackHours }))
    .filter((c) => {
      const at = reviewRequestOwed({ end: c.ends_at, delayHours: c.review_delay_hours, settingSetAt: c.review_request_set_at, now });
      return at !== null && at.getTime() <= now.getTime();
    })
    .map((c) => ({ id: c.id, proId: c.pro_id }));
}

/** Businesses served side by side by one tick: each one's messages in turn (they queue on its row lock anyway). */
const BUSINESSES_AT_ONCE = 4;

/** Runs `send` over the items, one business's items in order, up to four businesses at once: how many sent. */
async function perBusiness<T>(items: T[], proOf: (item: T) => string, send: (item: T) => Promise<boolean>): Promise<number> {
  const byPro = new Map<string, T[]>();
  for (const item of items) byPro.set(proOf(item), [...(byPro.get(proOf(item)) ?? []), item]);
  const groups = [...byPro.values()];
  let sent = 0;
  const lane = async () => {
    for (let group = groups.pop(); group; group = groups.pop()) for (const item of group) if (await send(item)) sent += 1;
  };
  await Promise.all(Array.from({ length: Math.min(BUSINESSES_AT_ONCE, groups.length) }, lane));
  return sent;
}

/** Every routine customer message owed by now, each queued once: how many reminders and review requests went. */
export async function sendDueCustomerMessages(db: Db, links: CustomerMessageLinks, now: Date): Promise<{ reminders: number; reviewRequests: number }> {
  const reminders = await perBusiness(
    await dueReminders(db, now),
    (d) => d.c.pro_id,
    (d) => sendReminder(db, d.c, d.owed, { links, now }),
  );
  const reviewRequests = await perBusiness(
    await dueReviewRequests(db, now),
    (r) => r.proId,
    (r) => sendReviewRequest(db, r.id, { links, now }),
  );
  return { reminders, reviewRequests };
}

/** What an unsubscribe link names, for its page: the business's name and whether it already took effect; null for no such link. */
export async function unsubscribeLinkInfo(db: Db, token: string): Promise<{ proName: string; done: boolean } | null> {
  const link = await unsubscribeLinkOf(db, token);
  return link ? { proName: link.pro_name, done: link.unsubscribed_at !== null } : null;
}

/** Unsubscribes the address a link names from its business's routine mail (again changes nothing); null for no such link. */
export async function unsubscribeByLink(db: Db, token: string, now: Date): Promise<{ proName: string } | null> {
  const link = await unsubscribeLinkOf(db, token);
  if (!link) return null;
  await addUnsubscribe(db, { proId: link.pro_id, email: link.email, now });
  return { proName: link.pro_name };
}

/** The routine messages that went out for a job, for its dashboard page. */
export async function jobMessages(db: Db, pro: Pro, bookingId: string) {
  return (await messagesSentFor(db, pro.id, bookingId)).map((m) => ({
    kind: m.kind,
    hoursBefore: m.offset_hours,
    sentLabel: formatLabel(m.sent_at, pro.timezone),
    forStartLabel: formatLabel(m.starts_at, pro.timezone),
  }));
}
