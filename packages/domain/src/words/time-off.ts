import { InvalidInputError } from '../errors';

/**
 * Refusals of a time off as given. (What is refused about the time off a business already
 * has, none found or too many, is in business.ts.)
 */

export const timeOffEndsBeforeStart = () => new InvalidInputError('end must be after start.');
/** `maxDays` is MAX_TIME_OFF_DAYS, passed in so words/ does not import the rule it words. */
export const timeOffTooLong = (maxDays: number) => new InvalidInputError(`Time off can be at most a year (${maxDays} days) long; split a longer break.`);
export const timeOffOver = () => new InvalidInputError('end is in the past: time off is for days still to come.');
