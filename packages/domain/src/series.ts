import type { Frequency } from './job';
import { addDays, type LocalDate } from './time';

/**
 * Recurring cleanings: a weekly, biweekly or monthly plan books its visits ahead, each at
 * the same local time (so across a DST change the instant moves and the wall clock does
 * not). "Monthly" is every four weeks, on the same weekday, as cleaning businesses plan it.
 * The horizon is how far ahead visits are held: twelve weeks, or six months for monthly; it
 * rolls forward as time passes.
 */
export type SeriesFrequency = Exclude<Frequency, 'once'>;

export const SERIES_STEP_DAYS: Record<SeriesFrequency, number> = { weekly: 7, biweekly: 14, monthly: 28 };
export const SERIES_HORIZON_DAYS: Record<SeriesFrequency, number> = { weekly: 84, biweekly: 84, monthly: 182 };

/** The visit dates of a series after `after` (exclusive) up to `through` (inclusive), on its step from the first date. */
export function seriesDates(firstDate: LocalDate, frequency: SeriesFrequency, after: LocalDate | null, through: LocalDate): LocalDate[] {
  const dates: LocalDate[] = [];
  for (let k = 0; ; k++) {
    const date = addDays(firstDate, k * SERIES_STEP_DAYS[frequency]);
    if (date > through) break;
    if (after === null || date > after) dates.push(date);
  }
  return dates;
}

/** The last date a series starting (or last planned) relative to `today` should hold visits through. */
export const seriesHorizonEnd = (today: LocalDate, frequency: SeriesFrequency): LocalDate => addDays(today, SERIES_HORIZON_DAYS[frequency]);
