import { InvalidInputError, NotFoundError } from '../errors';
import type { MailText } from './mail';

/** The property operations' refusals and messages, and why a feed failed or a clean needs the owner. */
export const noProperty = (id: string) => new NotFoundError(`No property ${id} in this business (list_properties shows its properties).`);
export const propertyNeedsHostContact = () => new InvalidInputError('host_phone or host_email is required: the host is the customer of its turnovers.');
export const sameCalendarTwice = () => new InvalidInputError('calendar_urls lists one address twice.');
export const propertyHasTurnovers = (count: number) =>
  new InvalidInputError(
    `This property still has ${count} upcoming ${count === 1 ? 'turnover' : 'turnovers'}; send cancel_turnovers: true to cancel ${count === 1 ? 'it' : 'them'} with the property.`,
  );

export const propertyAddedMessage = (name: string, feeds: number) =>
  `Added ${name}; its ${feeds === 1 ? 'calendar is' : `${feeds} calendars are`} read now and every 15 minutes, and each stay gets a turnover clean.`;
export const propertyUpdatedMessage = (name: string) => `Saved ${name}.`;
export const propertyRemovedMessage = (name: string, cancelled: number) =>
  `Removed ${name}${cancelled ? ` and cancelled its ${cancelled} upcoming ${cancelled === 1 ? 'turnover' : 'turnovers'} (the host is not messaged)` : ''}.`;
export const propertySyncedMessage = (name: string, failing: number) =>
  failing ? `Read ${name}'s calendars: ${failing} failed, so nothing was cancelled from ${failing === 1 ? 'it' : 'them'}.` : `Read ${name}'s calendars.`;

/** Why a feed could not be read, as the owner reads it. */
export const feedAnswered = (status: number) => `the calendar address answered ${status}`;
export const feedNotPublic = (host: string) => `${host} is not a public address`;
export const feedTimedOut = (seconds: number) => `no answer within ${seconds} seconds`;
export const feedTooLarge = (mb: number) => `the calendar is larger than ${mb} MB`;
export const feedTooManyRedirects = () => 'the address redirects too many times';
export const feedUnreachable = (why: string) => `the calendar could not be reached (${why})`;
export const feedNotCalendar = () => 'the address did not answer with a calendar';

/** The note a turnover booking carries for the crew. */
export const turnoverNote = (property: string, checkout: string) => `Turnover at ${property} after the guests' checkout on ${checkout}.`;

/** Why a stay's clean needs the owner. */
export const noCrewInWindow = (from: string, to: string | null) =>
  to === null
    ? `No crew is free for the whole clean after checkout (${from}) within that day's working hours.`
    : `No crew is free for the whole clean between checkout (${from}) and the next check-in (${to}).`;

export const turnoverBookedMessage = (property: string, label: string) => `Turnover at ${property} booked for ${label}.`;
export const turnoverProposedMessage = (property: string, label: string) => `Turnover at ${property} proposed for ${label}: accept it on the dashboard.`;
export const turnoverMovedMessage = (property: string, label: string) => `A stay at ${property} changed: its turnover moved to ${label}.`;
export const turnoverCancelledMessage = (property: string, label: string) => `A stay at ${property} is gone: its turnover on ${label} was cancelled.`;
export const turnoverAttentionMessage = (property: string, reason: string) => `A turnover at ${property} needs you: ${reason}`;
export const feedFailingMessage = (property: string, reason: string) =>
  `A calendar of ${property} cannot be read (${reason}). Its turnovers stay as they are until it is read again.`;

/** Accepting a proposed turnover on the dashboard: what happened, in the owner's words. */
export const noStayToAccept = () =>
  new NotFoundError("That stay is no longer in this property's calendars, so there is nothing to accept. The page shows the stays as they are now.");
export const checkoutPassed = () => new InvalidInputError("This stay's checkout has passed, so its turnover can no longer be planned.");
export const proposalAcceptedMessage = (property: string, label: string) => `Booked the turnover at ${property} for ${label}.`;
export const proposalReplannedMessage = (property: string, proposed: string | null, label: string) =>
  `${proposed ? `The proposed time (${proposed}) was taken meanwhile, so we` : 'We'} booked the turnover at ${property} for ${label}, the earliest start that fits now.`;
export const proposalAlreadyBookedMessage = (property: string, label: string) => `The turnover at ${property} is booked already for ${label}; nothing changed.`;
export const proposalNeedsAttentionMessage = (property: string, reason: string) =>
  `Nothing was booked: the turnover at ${property} needs you. ${reason} Change the property's times or crew, or free the time, then accept again.`;

/** The Properties pages' own sentences. */
export const propertyNotOnDashboard = () => new NotFoundError('That property is not in your business (it may have been removed, or the link is mistyped).');
export const propertyTimesSaved = (name: string, synced: string) => `Saved the times, crew and planning of ${name}, and planned its cleans again. ${synced}`;

/**
 * The owner's mail when a calendar starts failing: once per failing spell (again only after the
 * calendar has read well and fails anew), saying which calendar, why, that nothing was changed
 * from it, and where to fix it.
 */
export function feedFailingMail(m: { proName: string; property: string; url: string; reason: string }): MailText {
  return {
    subject: `${m.proName}: a calendar of ${m.property} cannot be read`,
    text:
      `A calendar of ${m.property} could not be read: ${m.reason}.\n\nCalendar address: ${m.url}\n\n` +
      `Its stays and turnover cleans stay as they were last read: nothing is booked, moved or cancelled from this calendar until it reads well again. ` +
      `If the host changed or removed the calendar link, put the new one on the property in the Properties section of your dashboard.\n\n` +
      `You get this email once while the calendar keeps failing, and again only if it reads well and then fails anew.\n`,
  };
}
