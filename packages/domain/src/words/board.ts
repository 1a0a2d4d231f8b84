import { InvalidInputError } from '../errors';

/** What the dispatch board says: a week picked that is no day, and what about a job needs a look. */

export const notABoardDay = (typed: string) =>
  new InvalidInputError(`"${typed.slice(0, 40)}" is not a day on the calendar: pick one with the date box, or write it as year-month-day, like 2026-11-23.`);

/** Why a job on the board is marked. */
export const outsideCrewHours = (crew: string) => `Outside ${crew}'s working hours.`;
export const inCrewTimeOff = (crew: string) => `During ${crew}'s time off.`;
export const inBusinessTimeOff = (note: string | null) => `While the business is closed${note ? ` (${note})` : ''}.`;

/** Above the board: how many jobs of the week need a look. */
export const jobsNeedALook = (n: number) =>
  `${n === 1 ? '1 job this week does' : `${n} jobs this week do`} not fit a crew's working hours or falls in time off:`;

/** A crew's day, said under its column: its hours, or that it does not work. */
export const crewHoursSaid = (windows: string[]) => (windows.length ? `Works ${windows.join(' and ')}.` : 'Not working.');
export const timeOffSaid = (what: string, note: string | null) => `Time off ${what}${note ? ` (${note})` : ''}.`;
export const closedSaid = (what: string, note: string | null) => `Business closed ${what}${note ? ` (${note})` : ''}.`;

/** A job's own page, for a job that is no longer booked. */
export const jobStatusSaid = (status: 'booked' | 'cancelled' | 'no_show') =>
  status === 'cancelled' ? 'This job was cancelled.' : status === 'no_show' ? 'This job was reported as a no-show.' : '';
