import { DEFAULT_DAYS, type OpenTimesFields } from './contract-schemas';
import { InvalidInputError } from './errors';
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
  if (input.date !== undefined && !isValidLocalDate(input.date)) {
    throw new InvalidInputError(`date "${input.date}" is not a real calendar day (YYYY-MM-DD).`);
  }
  if (input.start_after && input.finish_by && minutesOfDay(input.finish_by) <= minutesOfDay(input.start_after)) {
    throw new InvalidInputError(`finish_by (${input.finish_by}) must be later than start_after (${input.start_after}).`);
  }
  return { date: input.date, days: input.days ?? DEFAULT_DAYS, startAfter: input.start_after, finishBy: input.finish_by, now };
}

/** What an empty list of open times says, on every host. */
export function noOpenTimesMessage(days: number, from: string): string {
  return `No open times in ${days} day${days === 1 ? '' : 's'} from ${from}. Try later dates or a wider window.`;
}
