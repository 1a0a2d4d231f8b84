import { MAX_PAUSE_WEEKS, type SeriesFrequency } from '../series';
import { InvalidInputError, NotFoundError } from '../errors';

/** What the dashboard says about a recurring plan (a series): its rhythm in words, and what each of its forms will do and did. */

const EVERY: Record<SeriesFrequency, string> = { weekly: 'every week', biweekly: 'every 2 weeks', monthly: 'every 4 weeks' };

/** `9:00 AM`: a plan's local time of day (minutes after midnight). */
export const clockTime = (minutes: number): string => {
  const h = Math.floor(minutes / 60);
  return `${h % 12 === 0 ? 12 : h % 12}:${String(minutes % 60).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
};

/** `Every 2 weeks on Tuesdays at 9:00 AM EST`: a plan's rhythm (its weekday and time when known). */
export function planInWords(p: { frequency: SeriesFrequency; weekday?: string; time?: string }): string {
  const on = p.weekday ? ` on ${p.weekday}s` : '';
  const at = p.time ? ` at ${p.time}` : '';
  const every = EVERY[p.frequency];
  return `${every.charAt(0).toUpperCase()}${every.slice(1)}${on}${at}`;
}

/** `visit 3 of 12 booked so far`: where a visit stands in its plan. */
export const visitOfPlan = (n: number, of: number, ended: boolean): string => `visit ${n} of ${of}${ended ? '' : ' booked so far'}`;

export const planNotOnDashboard = () => new NotFoundError('That recurring plan is not in your business (the link may be mistyped).');
export const PLAN_ENDED = 'This plan has ended: no more visits will be booked.';
export const PLAN_GOES_ON = 'New visits are booked on their own as the weeks go by, at the same time, with the same crew when it is free.';
export const NO_UPCOMING_VISITS = 'No visit of this plan is booked ahead.';
export const pauseWeeksAsked = () => new InvalidInputError(`For how many weeks must be a whole number from 1 to ${MAX_PAUSE_WEEKS}.`);
export const pickAVisit = () => new InvalidInputError("Pick one of the plan's upcoming visits first.");

/** What "Change the crew" of later visits will do and did. */
export const planCrewWillChange = (n: number, from: string, to: string) =>
  `${n} visit${n === 1 ? '' : 's'} from ${from} on go to ${to}, at the same times, and so do the visits booked later. The customer is not told: the times stay the same.`;
export const planCrewChanged = (customer: string, n: number, to: string) =>
  `${to} now does ${customer}'s plan: ${n} visit${n === 1 ? '' : 's'} changed crew, and new visits go to ${to} too. The customer is not told: the times stay the same.`;

/** What a pause will do and did. */
export const planWillPause = (weeks: number, from: string, cancelled: number, resumes: string) =>
  `The plan pauses for ${weeks} week${weeks === 1 ? '' : 's'} from ${from}: ${cancelled === 0 ? 'no booked visit is' : `${cancelled} booked visit${cancelled === 1 ? ' is' : 's are'}`} cancelled (no fee), no visit is booked in those weeks, and it carries on with the visit of ${resumes}.`;
export const planPaused = (customer: string, cancelled: number, resumes: string, reach: string) =>
  `Paused ${customer}'s plan: ${cancelled} visit${cancelled === 1 ? '' : 's'} cancelled, no fee; it carries on with the visit of ${resumes}. We have not told ${customer}; ${reach}.`;

/** What ending a plan will do and did. */
export const planWillEnd = (from: string, n: number) =>
  `The plan ends: the visit of ${from}${n > 1 ? ` and the ${n - 1} booked after it are` : ' is'} cancelled (no fee), and no more visits are booked.`;
export const planEnded = (customer: string, n: number, reach: string) =>
  `Ended ${customer}'s plan: ${n} visit${n === 1 ? '' : 's'} cancelled, no fee, and no more will be booked. We have not told ${customer}; ${reach}.`;

/** A cancel by the business never mails the customer (rule 5 of the pro interface): the confirmation says so and how to reach them. */
export const businessCancelNotMailed = (customer: string, reach: string) => `We do not email or text ${customer} about this: ${reach}.`;

/** The move form's offer to tell the customer, and what the result says. */
export const emailNewTimeOffer = (customer: string) => `Email ${customer} the new time`;

/** pause_series' refusals and answer (written for assistants). */
export const notAVisitOfAPlan = (id: string) =>
  new InvalidInputError(`Booking ${id} is a one-time job, not a visit of a recurring plan: cancel_job cancels it.`);
export const planHasEnded = () => new InvalidInputError('This recurring plan has ended: there is nothing to pause.');
export const planPausedMessage = (customer: string, weeks: number, cancelled: number, resumes: string) =>
  `Paused ${customer}'s plan for ${weeks} week${weeks === 1 ? '' : 's'}: ${cancelled} visit${cancelled === 1 ? '' : 's'} cancelled, no fee; it carries on with the visit of ${resumes}. The customer is NOT messaged: tell the pro to inform them.`;

/** reschedule_job's answer when the customer was emailed the new time. */
export const movedAndEmailedMessage = (customerName: string, from: string, to: string) =>
  `Moved ${customerName}'s job from ${from} to ${to}; the price stays as booked. ${customerName} was emailed the new time.`;

/** assign_job's answer about the later visits that went with the job (and_following). */
export const laterVisitsAssigned = (n: number) =>
  n > 0 ? ` ${n} later visit${n === 1 ? '' : 's'} of the series went to the same crew, and new visits will too.` : '';

/** The move confirmation of a visit with every later one: where they go. */
export const laterVisitsWillMove = (n: number) =>
  `The ${n} visit${n === 1 ? '' : 's'} booked after it move${n === 1 ? 's' : ''} with it, each by the same number of days, to the new time of day: the plan keeps its rhythm on the new day. The first of them:`;
/** What the dashboard says after a move that emailed the customer. */
export const jobMovedAndEmailedOnDashboard = (name: string, from: string, to: string, email: string) =>
  `Moved ${name}'s job from ${from} to ${to}; the price stays as booked. We emailed ${name} the new time at ${email}.`;
