import { InvalidInputError, NotFoundError } from '../errors';
import { SHOWN_ONCE_MINUTES } from '../policy';
import type { HoldGone } from './holds';

/** What the owner's dashboard says about its own actions: a job's results and refusals, in the owner's words. */

export const jobNotOnSchedule = () => new NotFoundError('That job is not on your schedule (it may belong to another business, or the link is mistyped).');
export const pickANewTime = () => new InvalidInputError('Pick one of the open times first.');

/** How to let a customer know: never in brackets, since a phone number often is. */
export const reachCustomer = (phone: string | null, email: string | null): string =>
  phone && email
    ? `call them at ${phone} or write to ${email} to let them know`
    : phone
      ? `call them at ${phone} to let them know`
      : email
        ? `write to ${email} to let them know`
        : 'let them know yourself';

export const jobCancelledOnDashboard = (name: string, label: string, reach: string) =>
  `Cancelled ${name}'s job on ${label}. No fee. We have not told ${name}; ${reach}.`;
export const jobMovedOnDashboard = (name: string, from: string, to: string, reach: string) =>
  `Moved ${name}'s job from ${from} to ${to}; the price stays as booked. We have not told ${name}; ${reach}.`;
export const noShowOnDashboard = (name: string, label: string, waived: boolean) =>
  waived ? `Recorded that ${name} did not show up on ${label}; the booking fee is waived.` : `Recorded that ${name} did not show up on ${label}.`;

/**
 * What "on my way" says, on the dashboard's Today page and in the pro host's day view: what it
 * does before it is sent (the customer's name as the caller shows typed text: a page's <bdi>),
 * the arrival estimate's label, and when it went (a time in the business's zone).
 */
export const onMyWayWillEmail = <Name>(customer: Name) =>
  ['This emails ', customer, ' once that your crew is on the way, with the arrival time if you give one.'] as const;
export const ON_MY_WAY_ETA_LABEL = 'Arriving in, minutes (optional)';
export const onMyWaySentAt = (time: string) => `On my way sent at ${time}`;

/** A page's address carries what a form did, but it is gone: expired, signed out since, or another browser or owner. */
export const RESULT_NO_LONGER_SHOWN = `What your last change showed here is no longer shown: it stays for ${SHOWN_ONCE_MINUTES} minutes, in the browser and the sign-in that made it.`;

export const newKeyMade = 'Your old key stopped working. Give your assistant this one.';
export const calendarAddressMade = 'Subscribe your calendar to this address. Any address made before it no longer works.';
export const timeOffNotOnDashboard = () => new NotFoundError('That time off is not in your settings: it may have ended or been removed already.');

/** The crews pages: a crew the address names that is not this business's, and what each crew form did. */
export const crewNotOnDashboard = () => new NotFoundError('That crew is not in your business (it may have been removed, or the link is mistyped).');
export const crewRenamedOnDashboard = (name: string) => `Renamed the crew: it is ${name} now, on its jobs too.`;
export const crewEmailOnDashboard = (name: string, email: string | null) =>
  email ? `Saved: ${name} is emailed its own jobs each morning at ${email}.` : `Saved: ${name} gets no morning email.`;
export const crewHoursOnDashboard = (name: string, own: boolean) =>
  own ? `Saved ${name}'s own working hours: its open times follow them now.` : `${name} works the business's hours again.`;
export const crewTimeOffOnDashboard = (name: string) => `Time off saved for ${name}: it is offered no jobs in it; the other crews still are.`;
export const crewCalendarMade = (name: string) =>
  `Give this address to ${name}'s phone calendar: it lists only ${name}'s jobs. Any address made for ${name} before it no longer works.`;
export const pickAnotherCrew = () => new InvalidInputError('Pick the crew to give the job to.');
export const jobGivenOnDashboard = (customer: string, label: string, from: string, to: string) =>
  `Gave ${customer}'s job on ${label} to ${to} (it was ${from}'s). The customer is not told: the time is the same.`;

/** The times the business pencilled in (holds on its own host), as Today and Schedule show them and as releasing one says. */
const HOLD_NOT_ON_DASHBOARD = 'That pencilled-in time is not on your schedule (it may belong to another business, or the link is mistyped).';
export const holdNotOnDashboard = () => new NotFoundError(HOLD_NOT_ON_DASHBOARD);

/** "Pencilled in for Dana until 5:00 PM EST": for the lead's first name when there is one. */
export const pencilledInFor = (h: { leadName: string | null; forLead: boolean; until: string }) =>
  `Pencilled in${h.leadName ? ` for ${h.leadName}` : h.forLead ? ' for a lead' : ''} until ${h.until}; not booked yet`;

/** What releasing a pencilled-in time does, said before it is done. */
export const RELEASE_HOLD_SAYS = 'When you release it, the time goes back to your open times; nothing is sent to anyone.';

const heldTime = (label: string, leadName: string | null) => `the time pencilled in${leadName ? ` for ${leadName}` : ''} on ${label}`;

export const holdReleasedOnDashboard = (label: string, leadName: string | null) =>
  `Released ${heldTime(label, leadName)}: it goes back to your open times. Nothing was sent to anyone.`;

const GONE_ON_DASHBOARD: Record<HoldGone, string> = {
  released: 'was released already: it is back among your open times',
  expired: 'had run out already, so it no longer kept the time',
  used: 'was booked: the job is on your schedule',
};

/** The heading of a release page whose time no longer counts: no question left to ask. */
export const HOLD_GONE_TITLE = 'No longer pencilled in';

/** A pencilled-in time that no longer counts, said where the owner meant to release it. */
export const holdGoneOnDashboard = (why: HoldGone, label: string, leadName: string | null) => {
  const text = `${heldTime(label, leadName)} ${GONE_ON_DASHBOARD[why]}. Nothing changed.`;
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
};

/**
 * The crew operations' sentences as the dashboard shows them: they are written for assistants
 * (they name fields and other operations), so each fragment that does becomes what the owner
 * can do on the page instead.
 */
const OWNER_REWORDS: readonly (readonly [RegExp, string])[] = [
  [
    /^No crew with id \S+ in this business; my_business lists the crews\.$/,
    'That crew is not in your business (it may have been removed, or the link is mistyped).',
  ],
  [/ activate it with update_crew first\./, ' activate it first on its page under Crews.'],
  [
    / Give reassign_to another crew to take them, or move them with assign_job first; nothing was changed\./,
    ' Pick another crew to take them; nothing was changed.',
  ],
  [/^reassign_to must be another crew than the one removed\./, 'Pick another crew than the one you remove to take its jobs.'],
  [/; give them to another crew with assign_job if it will not do them\./, '; give them to another crew from each job if it will not do them.'],
  [/^No hold with id \S+ for this caller: .*$/, HOLD_NOT_ON_DASHBOARD],
  // The Properties pages: a removal with turnovers to come offers a box to tick instead of a field.
  [/; send cancel_turnovers: true to cancel (it|them) with the property\./, '; tick “Cancel its upcoming turnovers too” to cancel $1 with the property.'],
  // The add form's phone field is marked, and its sentence names the email in words.
  [/^host_phone or host_email is required:/, 'host_phone or email is required:'],
  [
    /^No property \S+ in this business \(list_properties shows its properties\)\.$/,
    'That property is not in your business (it may have been removed, or the link is mistyped).',
  ],
  // The dashboard's move page offers "this visit and the ones booked after it".
  [/ together \(and_following\)\./, ' together.'],
];

/** An operation's sentence about crews, a move or a pencilled-in time as the owner's dashboard shows it. */
export function inOwnerWords(sentence: string): string {
  return OWNER_REWORDS.reduce((text, [from, to]) => text.replace(from, to), sentence);
}

/**
 * What the Month page says a booked job is: the same rule the pipeline report counts by
 * (monthJobs in booked-jobs.ts), in the owner's words.
 */
export const BOOKED_JOB_MEANS =
  'A job is one booking made this month: one cleaning, or a recurring series as a whole. It counts while a visit of it is still on your schedule (upcoming or done) and is worth the price of those visits; cancelled visits and no-shows count for nothing.';
export const JOBS_PER_CREW_MEANS = 'Each job counts on the crew of its first visit still booked, so the crews add up to the total.';
/** The jobs booked in a month that are not counted, in a sentence (empty when there are none). */
export const jobsNotCounted = (cancelled: number, noShows: number): string => {
  const parts = [cancelled && `${cancelled} cancelled`, noShows && `${noShows} no-show${noShows === 1 ? '' : 's'}`].filter(Boolean);
  return parts.length ? `Not counted: ${parts.join(' and ')}.` : '';
};

/** Where a lead came from, as the Month page names it ("Marketplace 1", "Website"). */
export const leadSourceLabel = (source: string): string => {
  const [word = '', n] = source.split('_');
  return `${word.charAt(0).toUpperCase()}${word.slice(1)}${n ? ` ${n}` : ''}`;
};
