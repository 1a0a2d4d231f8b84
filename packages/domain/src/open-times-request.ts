import { DEFAULT_DAYS, type OpenTimesFields } from './contract-schemas';
import { finishByNotAfterStartAfter, openTimesDateNotReal } from './words/open-times';
import { isValidLocalDate, minutesOfDay } from './time';

/** An open-times request, checked: which days, which window of the day, as of when. */
export interface OpenTimesRequest {
  /** First local day listed; default today in the pro's zone. */
  date?: string;
  days: number;
  startAfter?: string;
  finishBy?: string;
  now: Date;
}

/**
 * The one parser of the open-times fields (open_times, available_times, find_cleaners): the
 * contract's default of 7 days, and the checks a schema cannot make (a real date, a window
 * that ends after it starts).
 */
export function parseOpenTimesRequest(input: OpenTimesFields, now: Date): OpenTimesRequest {
  if (input.date !== undefined && !isValidLocalDate(input.date)) throw openTimesDateNotReal(input.date);
  if (input.start_after && input.finish_by && minutesOfDay(input.finish_by) <= minutesOfDay(input.start_after)) {
    throw finishByNotAfterStartAfter(input.finish_by, input.start_after);
  }
  return { date: input.date, days: input.days ?? DEFAULT_DAYS, startAfter: input.start_after, finishBy: input.finish_by, now };
}
