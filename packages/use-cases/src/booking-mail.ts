import {
  businessMoveMailAddress,
  bookingConfirmationMail,
  cancelConfirmationMail,
  cancellationMessage,
  customerMailAddress,
  formatLabel,
  icalendar,
  isPlatformSource,
  laterVisitsMoved,
  moveConfirmationMail,
  movedByBusinessMail,
  newBookingMessage,
  newManageLinkMail,
  ownerNoticeAddress,
  ownerNoticeMail,
  rescheduleMessage,
  seriesCancelledMessage,
  seriesCreatedMessage,
  withinFreeCancel,
  FREQUENCY_LABELS,
  type MailedBooking,
  type SeriesFrequency,
} from '@frontdesk/domain';
import { bookingById, enqueueMail, getLead, seriesOfPro, type Booking, type Db, type Pro } from '@frontdesk/db';
import { customerCalendarEventOf } from './calendar';

/**
 * The mails a booking, move or cancellation sends, queued in the transaction that makes the
 * change (they leave only if it commits): the customer's confirmation and the owner's notice.
 * Every change asks; who gets one is the domain's rule alone (customerMailAddress,
 * ownerNoticeAddress): a customer's own change on the book host is confirmed to them and told
 * to the owner; a booking or change the business made mails nobody.
 */

/** Who made the change: the customer (on the book host) or the business. */
type By = 'pro' | 'customer';

/**
 * Where mail points: the book host's public URL (the customer's booking page, the calendar
 * event's id) and the business's dashboard (the owner's notice).
 */
export interface MailLinks {
  bookingUrl: string;
  dashboardUrl: string;
}

/** A customer's booking page: the manage token is the credential, so a mail carrying it is secret. */
export const manageLink = (links: MailLinks, token: string) => `${links.bookingUrl}/manage/${token}`;

/** What a mail says about a booking and its business. */
export function mailedBooking(b: Booking, pro: Pro): MailedBooking {
  return {
    proName: pro.name,
    proPhone: pro.phone,
    proEmail: pro.email,
    customerName: b.customer_name,
    label: formatLabel(b.starts_at, pro.timezone),
    address: b.address,
    zip: b.zip,
    cleanType: b.clean_type,
    bedrooms: b.bedrooms,
    bathrooms: b.bathrooms,
    totalCents: b.price_cents,
    frequency: b.frequency,
  };
}

/** Bookings as the customer's calendar file: each the same event (same UID) the booking page's .ics gives. */
function bookingIcs(visits: Booking[], pro: Pro, links: MailLinks, now: Date): string {
  const host = new URL(links.bookingUrl).host;
  return icalendar({ name: `Cleaning by ${pro.name}`, zone: pro.timezone, now, events: visits.map((v) => customerCalendarEventOf(v, pro, host)) });
}

/** The owner's notice, when the business wants them: the business's own notification, with how to reach the customer. */
async function noticeOwner(
  trx: Db,
  pro: Pro,
  n: { kind: 'booked' | 'moved' | 'cancelled'; by: By; booking: Booking; message: string; links: MailLinks | undefined; now: Date },
) {
  const to = ownerNoticeAddress(pro, n.by);
  if (!to) return;
  const b = n.booking;
  const mail = ownerNoticeMail({
    kind: n.kind,
    customerName: b.customer_name,
    label: formatLabel(b.starts_at, pro.timezone),
    message: n.message,
    address: b.address,
    zip: b.zip,
    crewName: b.crew_name,
    contact: { phone: b.customer_phone, email: b.customer_email, notes: b.notes },
    dashboardUrl: n.links?.dashboardUrl ?? null,
  });
  await enqueueMail(trx, { to, ...mail, now: n.now });
}

/** A new booking on the book host: the customer's confirmation (manage link, calendar file, a series' first visits) and the owner's notice. */
export interface BookedToMail {
  pro: Pro;
  booking: Booking;
  series: { frequency: SeriesFrequency; visits: Booking[]; skipped: number } | null;
  manageToken: string | null;
}

export async function mailBooked(trx: Db, made: BookedToMail, links: MailLinks | undefined, now: Date): Promise<void> {
  const { pro, booking: b, series } = made;
  const by: By = b.channel === 'book' ? 'customer' : 'pro';
  const to = customerMailAddress(b, by);
  if (to && links && made.manageToken) {
    const mail = bookingConfirmationMail(mailedBooking(b, pro), {
      manageUrl: manageLink(links, made.manageToken),
      series: series && { frequency: series.frequency, visitLabels: series.visits.map((v) => formatLabel(v.starts_at, pro.timezone)) },
    });
    await enqueueMail(trx, { to, ...mail, ics: bookingIcs(series?.visits ?? [b], pro, links, now), secret: true, now });
  }
  const label = formatLabel(b.starts_at, pro.timezone);
  const job = { clean_type: b.clean_type, bedrooms: b.bedrooms, bathrooms: b.bathrooms };
  const message = newBookingMessage({ channel: b.channel, clientName: b.client_name, customerName: b.customer_name, label, job, totalCents: b.price_cents });
  const repeats = series
    ? ` ${seriesCreatedMessage({ customerName: b.customer_name, frequency: FREQUENCY_LABELS[series.frequency].toLowerCase(), visits: series.visits.length, first: label, skipped: series.skipped })}`
    : '';
  await noticeOwner(trx, pro, { kind: 'booked', by, booking: b, message: `${message}${repeats}`, links, now });
}

/**
 * A customer's move: the new time, their booking page and the calendar file to them, the
 * notice to the owner. `manageToken` is the one they moved it with (their page's credential,
 * so the mail is secret); a move without it points to the confirmation mail's link.
 */
export async function mailMoved(
  trx: Db,
  m: { by: By; pro: Pro; booking: Booking; previous: Booking; laterMoved: number; manageToken: string | null },
  links: MailLinks | undefined,
  now: Date,
) {
  const { pro, booking: b, by } = m;
  const fromLabel = formatLabel(m.previous.starts_at, pro.timezone);
  const to = customerMailAddress(b, by);
  if (to && links) {
    const manageUrl = m.manageToken ? manageLink(links, m.manageToken) : null;
    const mail = moveConfirmationMail(mailedBooking(b, pro), { fromLabel, laterMoved: m.laterMoved, manageUrl });
    await enqueueMail(trx, { to, ...mail, ics: bookingIcs([b], pro, links, now), secret: manageUrl !== null, now });
  }
  const message = `${rescheduleMessage(by, b.customer_name, fromLabel, formatLabel(b.starts_at, pro.timezone))}${laterVisitsMoved(m.laterMoved)}`;
  await noticeOwner(trx, pro, { kind: 'moved', by, booking: b, message, links, now });
}

/** A customer's cancellation: what was cancelled (and the calendar file that removes it) to them, the notice to the owner. */
export async function mailCancelled(trx: Db, c: { by: By; pro: Pro; booking: Booking; laterCancelled: number }, links: MailLinks | undefined, now: Date) {
  const { pro, booking: b, by } = c;
  const to = customerMailAddress(b, by);
  if (to && links) {
    const mail = cancelConfirmationMail(mailedBooking(b, pro), { late: !withinFreeCancel(b.starts_at, now), laterCancelled: c.laterCancelled });
    await enqueueMail(trx, { to, ...mail, ics: bookingIcs([b], pro, links, now), now });
  }
  const label = formatLabel(b.starts_at, pro.timezone);
  const message = c.laterCancelled ? seriesCancelledMessage(by, b.customer_name, label, c.laterCancelled + 1) : cancellationMessage(by, b.customer_name, label);
  await noticeOwner(trx, pro, { kind: 'cancelled', by, booking: b, message, links, now });
}

/** A booking page link made again (a retried booking): the customer is sent the new one, since the mailed one stopped working. */
export async function mailNewManageLink(trx: Db, made: { pro: Pro; booking: Booking; manageToken: string }, links: MailLinks, now: Date): Promise<void> {
  const to = customerMailAddress(made.booking, 'customer');
  if (!to) return;
  const mail = newManageLinkMail(mailedBooking(made.booking, made.pro), manageLink(links, made.manageToken));
  await enqueueMail(trx, { to, ...mail, secret: true, now });
}

/** Whether a booking came from a platform lead: its own lead, or for a later visit of a series, the lead of the series' first booking. */
export async function fromPlatformLead(db: Db, b: Booking): Promise<boolean> {
  let leadId = b.lead_id;
  if (leadId === null && b.series_id !== null) {
    const series = await seriesOfPro(db, b.pro_id, b.series_id);
    leadId = (series && (await bookingById(db, series.template_booking_id))?.lead_id) ?? null;
  }
  const lead = leadId === null ? undefined : await getLead(db, b.pro_id, leadId);
  return lead !== undefined && isPlatformSource(lead.source);
}

/** Where the business's move of this booking may be emailed when the owner asks (the move form's offer), or null: never offered. */
export async function moveMailAddress(db: Db, b: Booking): Promise<string | null> {
  return businessMoveMailAddress(b, { platformLead: await fromPlatformLead(db, b) });
}

/** The new time of a move the business made, to its customer, when the owner asked and the rule allows; true when it was queued. */
export async function mailMovedByBusiness(
  trx: Db,
  m: { pro: Pro; booking: Booking; previous: Booking; laterMoved: number },
  links: MailLinks | undefined,
  now: Date,
): Promise<boolean> {
  const { pro, booking: b } = m;
  const to = links ? await moveMailAddress(trx, b) : null;
  if (!to || !links) return false;
  const mail = movedByBusinessMail(mailedBooking(b, pro), { fromLabel: formatLabel(m.previous.starts_at, pro.timezone), laterMoved: m.laterMoved });
  await enqueueMail(trx, { to, ...mail, ics: bookingIcs([b], pro, links, now), now });
  return true;
}
