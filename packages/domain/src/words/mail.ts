import { CLEAN_TYPE_LABELS, FREQUENCY_LABELS, type CleanType, type Frequency } from '../job';
import { formatUsd } from '../money';
import { FREE_CANCEL_HOURS, MAILED_SERIES_VISITS } from '../policy';

/**
 * The mails a customer and a business owner get when a customer books, moves or cancels on
 * the book host. A customer's mail never carries a link other than their own booking page;
 * the business's own changes and bookings are never mailed to its customer (the business
 * tells them).
 */

export interface MailText {
  subject: string;
  text: string;
}

/** What a mail says about the cleaner and the job. */
export interface MailedBooking {
  proName: string;
  proPhone: string | null;
  proEmail: string | null;
  customerName: string;
  /** When it starts, as people read it in the business's zone. */
  label: string;
  address: string;
  zip: string;
  cleanType: CleanType;
  bedrooms: number;
  bathrooms: number;
  totalCents: number;
  /** How often it repeats: a repeating cleaning's price is per visit. */
  frequency: Frequency;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
/** The price as the customer pays it: per visit for a repeating cleaning, in total for one. */
const priceLine = (b: MailedBooking) =>
  b.frequency === 'once' ? `${formatUsd(b.totalCents)} in total` : `${formatUsd(b.totalCents)} a visit (${FREQUENCY_LABELS[b.frequency].toLowerCase()})`;
const jobLine = (b: MailedBooking) =>
  `${CLEAN_TYPE_LABELS[b.cleanType]}, ${plural(b.bedrooms, 'bedroom')}, ${plural(b.bathrooms, 'bathroom')}: ${priceLine(b)}, no added fees.`;
const reachLine = (b: MailedBooking) => {
  const ways = [b.proPhone && `phone ${b.proPhone}`, b.proEmail && `email ${b.proEmail}`].filter(Boolean);
  return ways.length ? `To reach ${b.proName}: ${ways.join(', ')}.` : '';
};
const cancelPolicy = (proName: string) =>
  `Cancelling or moving is free until ${FREE_CANCEL_HOURS} hours before the start; closer than that, ${proName} may charge under their own policy.`;
const pageLink = (manageUrl: string) =>
  `See, move or cancel it on your booking page:\n${manageUrl}\nKeep this link to yourself: whoever has it can change the booking.`;
const paragraphs = (...parts: (string | false | null | undefined)[]) => `${parts.filter(Boolean).join('\n\n')}\n`;

/** A series as its confirmation shows it: how often, and its first visits. */
export interface MailedSeries {
  frequency: Exclude<Frequency, 'once'>;
  visitLabels: string[];
}

function seriesLines(s: MailedSeries): string {
  const shown = s.visitLabels.slice(0, MAILED_SERIES_VISITS);
  const more = s.visitLabels.length - shown.length;
  return [
    `This cleaning repeats (${FREQUENCY_LABELS[s.frequency].toLowerCase()}) at the same local time. Visits booked so far:`,
    ...shown.map((l) => `  - ${l}`),
    ...(more > 0 ? [`  - and ${plural(more, 'more visit')}`] : []),
    'More are added as time passes.',
  ].join('\n');
}

/** The customer's confirmation: what was booked, their page for it (a credential), the calendar file. */
export function bookingConfirmationMail(b: MailedBooking, links: { manageUrl: string; series: MailedSeries | null }): MailText {
  return {
    subject: `Booked: ${b.proName}, ${b.label}`,
    text: paragraphs(
      `Hello ${b.customerName},`,
      `${b.proName} will clean at ${b.address}, ${b.zip}, on ${b.label}.\n${jobLine(b)}`,
      links.series && seriesLines(links.series),
      pageLink(links.manageUrl),
      cancelPolicy(b.proName),
      `${b.proName} will contact you about access and payment. ${reachLine(b)}`.trim(),
      `The attached calendar file adds ${links.series ? 'every visit booked so far' : 'the cleaning'} to your calendar.`,
    ),
  };
}

/** A customer's booking page link made again (a booking request retried): the old link stopped working. */
export function newManageLinkMail(b: MailedBooking, manageUrl: string): MailText {
  return {
    subject: `A new link for your booking: ${b.proName}, ${b.label}`,
    text: paragraphs(
      `Hello ${b.customerName},`,
      `Your booking with ${b.proName} on ${b.label} was asked for again, so its page has a new link; the link sent before no longer works:\n${manageUrl}\nKeep this link to yourself: whoever has it can change the booking.`,
    ),
  };
}

const otherVisits = (n: number, what: string) => (n > 0 ? ` ${plural(n, 'later visit')} of the series ${n === 1 ? 'was' : 'were'} ${what} too.` : '');
const samePage = 'Your booking page is still at the link in your booking confirmation email.';

/**
 * The customer's confirmation of their own move, with the new time, their booking page (they
 * moved it from there, so its link is at hand) and the calendar file.
 */
export function moveConfirmationMail(b: MailedBooking, move: { fromLabel: string; laterMoved: number; manageUrl: string | null }): MailText {
  return {
    subject: `Moved: ${b.proName}, now ${b.label}`,
    text: paragraphs(
      `Hello ${b.customerName},`,
      `Your cleaning with ${b.proName} at ${b.address}, ${b.zip} moved from ${move.fromLabel} to ${b.label}, at the same price (${priceLine(b)}).${otherVisits(move.laterMoved, 'moved')}`,
      move.manageUrl ? pageLink(move.manageUrl) : samePage,
      reachLine(b),
      'The attached calendar file updates the cleaning in your calendar.',
    ),
  };
}

/**
 * The new time of a move the business made, when the owner asked for it to be sent: what
 * moved and how to reach the business, with no link (the business made the booking; its
 * customer may never have had a booking page).
 */
export function movedByBusinessMail(b: MailedBooking, move: { fromLabel: string; laterMoved: number }): MailText {
  return {
    subject: `New time: ${b.proName}, now ${b.label}`,
    text: paragraphs(
      `Hello ${b.customerName},`,
      `${b.proName} moved your cleaning at ${b.address}, ${b.zip} from ${move.fromLabel} to ${b.label}, at the same price (${priceLine(b)}).${otherVisits(move.laterMoved, 'moved')}`,
      reachLine(b),
      'The attached calendar file updates the cleaning in your calendar.',
    ),
  };
}

/** The customer's confirmation of their own cancellation; `late` is inside the free-cancel window. */
export function cancelConfirmationMail(b: MailedBooking, c: { late: boolean; laterCancelled: number }): MailText {
  return {
    subject: `Cancelled: ${b.proName}, ${b.label}`,
    text: paragraphs(
      `Hello ${b.customerName},`,
      `Your cleaning with ${b.proName} at ${b.address}, ${b.zip} on ${b.label} is cancelled.${otherVisits(c.laterCancelled, 'cancelled')}`,
      c.late
        ? `The start was less than ${FREE_CANCEL_HOURS} hours away, so ${b.proName} may charge under their own cancellation policy.`
        : 'It was cancelled free of charge.',
      reachLine(b),
      'The attached calendar file removes the cleaning from your calendar.',
    ),
  };
}

/** The customer's contact as the owner's notice lists it. */
export interface NoticeContact {
  phone: string | null;
  email: string | null;
  notes: string | null;
}

const contactLines = (c: NoticeContact) =>
  [c.phone && `Phone: ${c.phone}`, c.email && `Email: ${c.email}`, c.notes && `Notes: ${c.notes}`].filter(Boolean).join('\n');

/** Why the owner gets it and how to stop it, in the words of the dashboard's own setting. */
const whyYouGetThis = (dashboardUrl: string | null) =>
  `You get this email because "Email me when a customer books, moves or cancels" is on in your settings${
    dashboardUrl ? ` (${dashboardUrl}/settings/notices)` : ''
  }; turn it off there to stop these emails, or ask your assistant to. Your schedule has every booking.`;

/** The owner's notice of a customer's booking, move or cancellation: the business's own notification, where and who, and how to reach the customer. */
export function ownerNoticeMail(n: {
  kind: 'booked' | 'moved' | 'cancelled';
  customerName: string;
  label: string;
  message: string;
  address: string;
  zip: string;
  crewName: string;
  contact: NoticeContact;
  /** The business's dashboard, when the host knows where it is. */
  dashboardUrl: string | null;
}): MailText {
  const what = { booked: 'New booking', moved: 'Booking moved', cancelled: 'Booking cancelled' }[n.kind];
  return {
    subject: `${what}: ${n.customerName}, ${n.label}`,
    text: paragraphs(
      n.message,
      [`Address: ${n.address}, ${n.zip}`, `Crew: ${n.crewName}`, contactLines(n.contact)].filter(Boolean).join('\n'),
      n.dashboardUrl && `Your schedule: ${n.dashboardUrl}/schedule`,
      whyYouGetThis(n.dashboardUrl),
    ),
  };
}

/** What a delivered mail that carried a credential keeps in the outbox: that it was sent, never what it said. */
export const ERASED_MAIL_SUBJECT = '(removed after delivery: it carried a code or a link)';
