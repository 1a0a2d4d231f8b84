import { InvalidInputError, NotFoundError } from '../errors';

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

export const newKeyMade = 'Your old key stopped working. Give your assistant this one.';
export const calendarAddressMade = 'Subscribe your calendar to this address. Any address made before it no longer works.';
export const timeOffNotOnDashboard = () => new NotFoundError('That time off is not in your settings: it may have ended or been removed already.');
