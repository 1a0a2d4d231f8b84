import { InvalidInputError } from '../errors';
import type { MoveWindow } from '../move-window';
import { addDays, formatDay, type LocalDate } from '../time';

/** What the move pages (the customer's and the owner's) say about the days they offer, and the refusals of a move that would reorder a series. */

/** The days listed, and why these: the week before and after the job's own day, or a week picked. */
export const moveDaysShown = (w: MoveWindow, jobDay: LocalDate): string =>
  `Open times from ${formatDay(w.from)} to ${formatDay(w.through)}${w.around ? `: the week before and the week after ${formatDay(jobDay)}` : ''}.`;
export const NO_TIMES_THESE_DAYS = 'No open times on these days: look at earlier or later days below.';
export const earlierDaysLink = (w: MoveWindow): string =>
  w.earlier === null ? '' : `Earlier days: ${formatDay(w.earlier)} to ${formatDay(minDay(addWeek(w.earlier), dayBefore(w.from)))}`;
export const laterDaysLink = (w: MoveWindow): string => `Later days: ${formatDay(w.later)} to ${formatDay(addWeek(w.later))}`;
export const aroundDaysLink = (jobDay: LocalDate): string => `Back to the days around ${formatDay(jobDay)}`;

/** The last day of the week starting on `d`, and the day before `d`. */
const addWeek = (d: LocalDate) => addDays(d, 6);
const dayBefore = (d: LocalDate) => addDays(d, -1);
const minDay = (a: LocalDate, b: LocalDate) => (a < b ? a : b);

/** A visit of a series moved onto or before the visit before it. */
export const visitPassesEarlierVisit = (toDay: string, beforeLabel: string) =>
  new InvalidInputError(
    `A visit of a series keeps its place in the series: it cannot move to ${toDay}, on or before the visit of ${beforeLabel}. Pick a day after that visit.`,
  );
/** A visit of a series moved alone onto or past the visit after it. */
export const visitPassesLaterVisit = (toDay: string, afterLabel: string) =>
  new InvalidInputError(
    `A visit of a series keeps its place in the series: moved alone, it cannot move to ${toDay}, on or after the next visit of ${afterLabel}. Pick a day before that visit, or move this visit and every later one together (and_following).`,
  );

/** What a customer's move page says of where a visit of a series can go, alone or with the later visits. */
export const aloneStaysBetween = (before?: string, after?: string): string =>
  before && after
    ? ` It stays between your visits of ${before} and ${after}.`
    : before
      ? ` It stays after your visit of ${before}.`
      : after
        ? ` It stays before your visit of ${after}.`
        : '';
export const laterStayAfter = (before?: string): string => (before ? ` They stay after your visit of ${before}.` : '');
/** What the owner's move page says of a visit of a series: the days it can move to. */
export const jobStaysBetween = (before?: string, after?: string): string =>
  before && after
    ? `This is a visit of a series: it moves to a day after the visit of ${before} and before the one of ${after}, so the series keeps its order.`
    : before
      ? `This is a visit of a series: it moves to a day after the visit of ${before}, so the series keeps its order.`
      : after
        ? `This is a visit of a series: it moves to a day before the visit of ${after}, so the series keeps its order.`
        : '';

/**
 * What a series' manage page says, still booked first and then what ended: after "cancel this
 * and all later visits" it no longer says the cleaning repeats.
 */
export const seriesBookedCount = (n: number): string =>
  n === 0 ? 'Nothing is booked ahead.' : `${n} visit${n === 1 ? ' is' : 's are'} booked. Move or cancel one visit, or one and all later ones.`;
export const endedSeriesStillBooked = (n: number, cleaner: string, price: string): string =>
  n === 0
    ? 'Nothing is booked ahead.'
    : `${n} visit${n === 1 ? ' is' : 's are'} still booked with ${cleaner}, ${price} per visit. Move or cancel ${n === 1 ? 'it' : 'any of them'} below.`;
export const SERIES_ENDED = 'The series has ended: no more visits will be booked.';
export const ENDED_VISITS_NOTE = 'Cancelled or missed visits from now on:';
