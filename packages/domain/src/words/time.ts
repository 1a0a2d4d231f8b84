import { InvalidInputError } from '../errors';

/** Refusals of a date or a date-time as a caller writes it, each naming the field. */

export const notARealDateTime = (field: string, value: string) => new InvalidInputError(`${field} "${value}" is not a real date and time.`);
export const notAnIsoDateTime = (field: string, value: string) => new InvalidInputError(`${field} "${value}" is not a valid ISO 8601 date-time.`);
/** A local time inside a spring-forward gap: it never shows on the clocks of `zone`. */
export const skippedByDaylightSaving = (field: string, value: string, zone: string) =>
  new InvalidInputError(`${field} "${value}" does not exist in ${zone}: clocks skip that hour for daylight saving time. Pick a time from open_times.`);
export const notADateTime = (field: string, value: string) =>
  new InvalidInputError(
    `${field} must be an ISO 8601 date-time such as 2026-11-24T09:00:00-05:00 (without an offset it means the business's local time); got "${value}".`,
  );
export const notARealDate = (field: string, value: string) => new InvalidInputError(`${field} "${value}" is not a real date.`);
