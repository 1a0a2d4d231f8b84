import { InvalidInputError } from '../errors';

/** What a caller reads about open times: a request refused, none found, and why a start is not open. */

export const openTimesDateNotReal = (date: string) => new InvalidInputError(`date "${date}" is not a real calendar day (YYYY-MM-DD).`);
export const finishByNotAfterStartAfter = (finishBy: string, startAfter: string) =>
  new InvalidInputError(`finish_by (${finishBy}) must be later than start_after (${startAfter}).`);

/** What an empty list of open times says, on every host. */
export function noOpenTimesMessage(days: number, from: string): string {
  return `No open times in ${days} day${days === 1 ? '' : 's'} from ${from}. Try later dates or a wider window.`;
}

/*
 * Why a start is not open, each beginning with the start's label; notOpen (bookings.ts)
 * turns one into the refusal, with the nearest open times.
 */

export const startInPast = (label: string) => `${label} is in the past.`;
/** Whole hours read as such (`36 hours'`), anything else to a tenth (`1.5 hours'`). */
export const startTooSoon = (label: string, noticeHours: number) =>
  `${label} is too soon: this business needs ${noticeHours % 1 === 0 ? noticeHours : noticeHours.toFixed(1)} hours' notice.`;
/** `weekday` is the day's full name, `Sunday`. */
export const startOnClosedDay = (label: string, weekday: string) => `${label} is outside working hours: this business is closed on ${weekday}s.`;
export const startOutsideHours = (label: string, durationMinutes: number, windows: readonly { start: string; end: string }[], zone: string) =>
  `${label} is outside working hours: a ${durationMinutes}-minute job must start and end within ${windows.map((w) => `${w.start}-${w.end}`).join(', ')} (${zone}).`;
export const startBeforeStartAfter = (label: string, startAfter: string) => `${label} is before start_after ${startAfter}.`;
export const startWouldNotFinish = (label: string, finishBy: string) => `A job starting ${label} would not finish by ${finishBy}.`;
export const startInTimeOff = (label: string) => `${label} falls in the business's time off.`;
export const startTaken = (label: string, travelBufferMinutes: number) =>
  `${label} is taken: it overlaps another job or its ${travelBufferMinutes}-minute travel buffer.`;
export const startOffStep = (label: string, stepMinutes: number) =>
  `${label} is not one of the offered start times (every ${stepMinutes} minutes from opening).`;
