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

/**
 * A series keeps the order of its visits: a visit moves only to a day after the visit before
 * it and, moved alone, to a day before the visit after it (cancelled visits hold no place).
 * So the first visit stays the first and no visit moves before the series began, and two
 * visits never share a day; moving a visit with every later one shifts them together, so only
 * the visit before bounds it. Which neighbour a move would pass, or null when it keeps order.
 */
export function visitPassed(o: { to: LocalDate; before?: LocalDate; after?: LocalDate; andFollowing: boolean }): 'before' | 'after' | null {
  if (o.before !== undefined && o.to <= o.before) return 'before';
  if (!o.andFollowing && o.after !== undefined && o.to >= o.after) return 'after';
  return null;
}

/** The longest pause a plan takes at once, in weeks. */
export const MAX_PAUSE_WEEKS = 26;

/**
 * A pause of a plan: `weeks` weeks from the day of the visit it starts at. The visits in
 * [from, before) are skipped (the plan's own dates there, whether booked yet or not) and the
 * plan carries on with its first date on or after `before`, on its rhythm.
 */
export function pauseOf(s: { firstDate: LocalDate; frequency: SeriesFrequency }, from: LocalDate, weeks: number) {
  const before = addDays(from, 7 * weeks);
  const dates = seriesDates(s.firstDate, s.frequency, addDays(from, -1), addDays(before, -1));
  const resumesOn = seriesDates(s.firstDate, s.frequency, addDays(before, -1), addDays(before, SERIES_STEP_DAYS[s.frequency]))[0]!;
  return { from, before, dates, resumesOn };
}

/** Dates of a plan a pause did not skip: what the horizon books. */
export const notPaused = (dates: LocalDate[], paused: readonly LocalDate[]): LocalDate[] => dates.filter((d) => !paused.includes(d));

/** The days between two local dates (positive when `to` is later). */
export const daysFromTo = (from: LocalDate, to: LocalDate): number => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/**
 * Where the later visits of a plan go when one visit moves with every later one: each by the
 * same number of days as the visit moved, so the plan keeps its rhythm on the new weekday.
 */
export const shiftedWith = (dates: readonly LocalDate[], moved: { from: LocalDate; to: LocalDate }): LocalDate[] =>
  dates.map((d) => addDays(d, daysFromTo(moved.from, moved.to)));
