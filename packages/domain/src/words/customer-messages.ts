import { InvalidInputError } from '../errors';
import type { MailText, MailedBooking } from './mail';

/** Refusals of the routine-message settings. */
export const remindersListedTwice = () => new InvalidInputError('customer_reminders lists the same hour twice; give each reminder its own time.');
export const reviewLinkNotHttps = (value: string) =>
  new InvalidInputError(`review_request.link "${value}" is not an https web address such as https://g.page/r/your-business/review.`);

const paragraphs = (...parts: (string | false | null | undefined)[]) => `${parts.filter(Boolean).join('\n\n')}\n`;

/** The routine mails' last lines: why they came, and how to stop them (confirmations still come). */
const unsubscribeLine = (proName: string, unsubscribeUrl: string) =>
  `You get this because you booked with ${proName}. To get no more reminders or review requests from ${proName} (booking confirmations still come):\n${unsubscribeUrl}`;

/** What a reminded job needs from the customer before the crew comes. */
export function prepareLine(o: { pets: boolean }): string {
  return `Before the crew comes: make sure they can get in, put away valuables and clutter${o.pets ? ', and keep pets where they are comfortable' : ''}.`;
}

/** A reminder before a job: when, where, what to prepare, and where to change it. */
export function reminderMail(b: MailedBooking & { pets: boolean }, o: { hasBookingPage: boolean; unsubscribeUrl: string }): MailText {
  const reach = [b.proPhone && `phone ${b.proPhone}`, b.proEmail && `email ${b.proEmail}`].filter(Boolean).join(', ');
  return {
    subject: `Reminder: ${b.proName} cleans ${b.label}`,
    text: paragraphs(
      `Hello ${b.customerName},`,
      `A reminder: ${b.proName} will clean at ${b.address}, ${b.zip}, on ${b.label}.`,
      prepareLine(b),
      o.hasBookingPage
        ? 'To move or cancel, use the booking page link in your booking confirmation email.'
        : reach && `To move or cancel, contact ${b.proName}.`,
      reach && `To reach ${b.proName}: ${reach}.`,
      unsubscribeLine(b.proName, o.unsubscribeUrl),
    ),
  };
}

/** A review request after a job: one link, the business's own review page. */
export function reviewRequestMail(b: Pick<MailedBooking, 'proName' | 'customerName'>, o: { reviewLink: string; unsubscribeUrl: string }): MailText {
  return {
    subject: `How was your cleaning with ${b.proName}?`,
    text: paragraphs(
      `Hello ${b.customerName},`,
      `Thank you for having ${b.proName} clean for you. If you have a minute, a short review helps a small business a lot:\n${o.reviewLink}`,
      unsubscribeLine(b.proName, o.unsubscribeUrl),
    ),
  };
}

/** The booking host's unsubscribe page. */
export const UNSUBSCRIBE_PAGE = {
  title: 'Stop reminders and review requests',
  ask: (proName: string) => `Stop reminders and review requests from ${proName}? Booking confirmations and changes you make still come.`,
  button: 'Stop these emails',
  done: (proName: string) => `Done: ${proName} will send you no more reminders or review requests. Booking confirmations still come.`,
  gone: 'This link does not work. It may have been typed with a part missing.',
};

/** The dashboard's names of a job's routine messages. */
export const CUSTOMER_MESSAGE_LABELS = {
  reminder: (hours: number) => `Reminder (${hours} h before)`,
  review_request: () => 'Review request',
};

/** The feed's line when a reminder or a review request went to a customer. */
export const reminderSentMessage = (customerName: string, label: string, hours: number) =>
  `Reminder emailed to ${customerName} for the job on ${label} (${hours} h before).`;
export const reviewRequestSentMessage = (customerName: string, label: string) => `Review request emailed to ${customerName} after the job on ${label}.`;
