import { InvalidInputError, NotFoundError } from '../errors';
import { FREE_CANCEL_HOURS } from '../policy';
import type { MailText } from './mail';

/**
 * A host's side of turnover cleans asked for on the book host (request_turnovers): the answer,
 * the mails about their cleans, and the page their manage link opens. The host reads these, so
 * they speak of their rental, stays and cleans, never of fields.
 */

export const calendarAddressBad = (url: string) =>
  new InvalidInputError(
    `calendar_urls: ${url} is not a calendar link. Copy the iCal export link your listing's calendar page shows (it starts with https://).`,
  );
/**
 * A second request for calendars the business already reads: refused, the same for whoever
 * asks (the caller may not be that rental's host), saying only where the link went.
 */
export const rentalAlreadyAsked = (proName: string) =>
  new InvalidInputError(
    `calendar_urls: ${proName} already reads these calendars for a rental, so nothing new was made. If you asked before, the link to that rental's page has been mailed again to the address given then; otherwise ask ${proName}.`,
  );

/** The existing rental's link again, to the host on file, when someone asked for its calendars again. */
export function rentalLinkAgainMail(o: { hostName: string; proName: string; property: string; manageUrl: string }): MailText {
  return {
    subject: `Your turnover cleans at ${o.property} with ${o.proName}`,
    text: paragraphs(
      `Hello ${o.hostName},`,
      `Someone asked ${o.proName} again for turnover cleans from ${o.property}'s calendars. ${o.proName} already reads them, so nothing changed. If it was not you, you need do nothing.`,
      keepLink(o.manageUrl),
    ),
  };
}

export const noRentalWithToken = () => new NotFoundError('No rental matches that link. Check that it was copied whole.');

export const turnoversRequestedMessage = (o: { proName: string; property: string; book: boolean }) =>
  `${o.proName} now reads ${o.property}'s calendars: each stay gets a turnover clean after checkout, ${
    o.book ? 'booked at once' : `proposed to ${o.proName} to accept`
  }. The host is mailed as cleans are booked, moved or cancelled. Give the user the manage_url: it shows the stays and cleans and stops the arrangement.`;

/** The owner's feed when the host stops the arrangement: each upcoming clean cancelled by the host. */
export const hostStoppedMessage = (property: string, label: string) =>
  `The host of ${property} stopped its turnover cleans: the one on ${label} was cancelled.`;

const paragraphs = (...parts: string[]) => parts.join('\n\n');
const keepLink = (url: string) => `Your rental's page, where you see its stays and cleans and can stop the arrangement:\n${url}\nKeep this link to yourself.`;

/** The host's confirmation that the business reads their calendars. */
export function turnoversRequestedMail(o: { hostName: string; proName: string; property: string; book: boolean; manageUrl: string }): MailText {
  return {
    subject: `${o.proName} will clean ${o.property} between guests`,
    text: paragraphs(
      `Hello ${o.hostName},`,
      `${o.proName} now reads ${o.property}'s calendars. After each guest's checkout a turnover clean is ${o.book ? 'booked' : `proposed to ${o.proName}, who confirms it`}, and you get a mail each time a clean is booked, moved or cancelled.`,
      keepLink(o.manageUrl),
    ),
  };
}

export type HostTurnoverChange = 'booked' | 'moved' | 'cancelled';

/** A clean the calendars booked, moved or cancelled, to the host. */
export function hostTurnoverMail(
  kind: HostTurnoverChange,
  o: { hostName: string; proName: string; property: string; label: string; fromLabel?: string; manageUrl: string },
): MailText {
  const line = {
    booked: `${o.proName} booked a turnover clean at ${o.property} for ${o.label}, after your guests' checkout.`,
    moved: `A stay at ${o.property} changed, so ${o.proName} moved its turnover clean${o.fromLabel ? ` from ${o.fromLabel}` : ''} to ${o.label}.`,
    cancelled: `A stay at ${o.property} is no longer in your calendar, so ${o.proName} cancelled its turnover clean on ${o.label}.`,
  }[kind];
  const subject = { booked: 'Turnover booked', moved: 'Turnover moved', cancelled: 'Turnover cancelled' }[kind];
  return { subject: `${subject}: ${o.property}, ${o.label}`, text: paragraphs(`Hello ${o.hostName},`, line, keepLink(o.manageUrl)) };
}

/** The host's confirmation that they stopped the arrangement. */
export function turnoversStoppedMail(o: { hostName: string; proName: string; property: string; cancelled: string[] }): MailText {
  const n = o.cancelled.length;
  return {
    subject: `Turnover cleans stopped: ${o.property}`,
    text: paragraphs(
      `Hello ${o.hostName},`,
      `${o.proName} no longer reads ${o.property}'s calendars.${n ? ` ${n === 1 ? 'This upcoming clean was' : `These ${n} upcoming cleans were`} cancelled:\n${o.cancelled.map((l) => `- ${l}`).join('\n')}` : ''}`,
    ),
  };
}

/** A calendar day (YYYY-MM-DD) as people read it: "Sat, Dec 5". */
const dayLabel = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "2 upcoming cleans were cancelled": what stopping a rental cancelled, said on its pages. */
const cleansCancelled = (n: number) => `${n} upcoming ${n === 1 ? 'clean was' : 'cleans were'} cancelled`;

/** The rental page (`/rental/<token>`) in the host's words. */
export const RENTAL_PAGE = {
  title: 'Your rental',
  stopTitle: 'Stop the turnover cleans?',
  intro: (proName: string, book: boolean) =>
    `${proName} reads this rental's calendars. After each guest's checkout a turnover clean is ${book ? 'booked' : `proposed to ${proName}, who confirms it`}.`,
  noStays: 'No upcoming stays in your calendars yet. Calendars are read every 15 minutes.',
  stay: (checkIn: string, checkout: string) => `Guests from ${dayLabel(checkIn)} to ${dayLabel(checkout)}`,
  clean: {
    booked: (label: string) => `Clean booked: ${label}`,
    proposed: (label: string) => `Clean proposed for ${label}, waiting for the cleaner to confirm`,
    needs_attention: 'No clean yet: the cleaner is finding a time',
    none: 'No clean yet',
  },
  calendarFailing: 'One of your calendars could not be read last time; nothing is cancelled until it is read again.',
  stopAsk: (proName: string, upcoming: number) =>
    `${proName} will stop reading your calendars and forget this rental.${upcoming ? ` Its ${upcoming} upcoming ${upcoming === 1 ? 'clean is' : 'cleans are'} cancelled.` : ''}`,
  /** The cancel confirmations' late warning, for the cleans stopping would cancel within FREE_CANCEL_HOURS of their start. */
  stopLate: (proName: string, labels: string[]) =>
    `${labels.length === 1 ? `The clean on ${labels[0]} starts` : `The cleans on ${labels.join(' and ')} start`} within ${FREE_CANCEL_HOURS} hours: stopping still cancels ${labels.length === 1 ? 'it' : 'them'}, but ${proName} may charge under their own policy.`,
  stopButton: 'Stop the cleans',
  stopLink: 'Stop the turnover cleans',
  keep: 'Keep them',
  stopped: (cancelled: number) => `Stopped. Your calendars are no longer read${cancelled ? `, and ${cleansCancelled(cancelled)}` : ''}.`,
  /** The link of a rental its host stopped, opened again: said instead of the rental or of the question to stop. */
  stoppedTitle: 'Turnover cleans stopped',
  /** `day` is the day it was stopped (YYYY-MM-DD, in the business's zone). */
  alreadyStopped: (proName: string, day: string, cancelled: number) =>
    `You stopped these turnover cleans on ${dayLabel(day)}: ${proName} no longer reads your calendars${cancelled ? `, and ${cleansCancelled(cancelled)} then` : ''}. There is nothing more to stop.`,
  gone: 'No rental matches this link. Check that it was copied whole.',
};
