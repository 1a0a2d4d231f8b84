import type { WeeklyHours } from './availability';
import { withinWorkingHours } from './settings';
import { addDays, isValidLocalDate, isoWeekday, minutesOfDay, wallTimeOrNextInstant, type LocalDate } from './time';
import { inBusinessTimeOff, inCrewTimeOff, notABoardDay, outsideCrewHours } from './words/board';
import { wallClock } from './zone';

/**
 * The dispatch board's arithmetic: which week a day names (Monday to Sunday in the business's
 * zone), where a job, a crew's working hours or time off sits in a day's column (rows of
 * BOARD_STEP_MINUTES from the first hour anything starts to the last hour anything ends), and
 * what about a job the owner should look at (outside its crew's hours, in time off). No I/O.
 */

/** One row of a day's column: the smallest part of a day the board draws. */
export const BOARD_STEP_MINUTES = 15;
/** The hours a day's column shows when nothing that week says otherwise. */
const DEFAULT_WINDOW = { from: 8 * 60, to: 17 * 60 };
const DAY_MINUTES = 24 * 60;

export interface BoardWeek {
  /** The Monday, and the seven days from it. */
  start: LocalDate;
  days: LocalDate[];
  previous: LocalDate;
  next: LocalDate;
  /** The week as instants: its first midnight and the next Monday's, in the business's zone. */
  from: Date;
  to: Date;
  /** Each day with its midnights as milliseconds (a day of a clock change is 23 or 25 hours). */
  spans: BoardDay[];
}

/** A local day and the instants it runs between, [from, to). */
export interface BoardDay {
  date: LocalDate;
  from: number;
  to: number;
}

/** The week (Monday to Sunday) holding `date`, or today's when none is given; a date that is no day is refused in words. */
export function boardWeek(date: string | undefined, today: LocalDate, zone: string): BoardWeek {
  const picked = date === undefined || date === '' ? today : date.trim();
  if (!isValidLocalDate(picked)) throw notABoardDay(picked);
  const start = addDays(picked, 1 - isoWeekday(picked));
  const days = Array.from({ length: 7 }, (_, i) => addDays(start, i));
  const next = addDays(start, 7);
  const midnights = [...days, next].map((d) => wallTimeOrNextInstant(d, 0, zone));
  const spans = days.map((date, i) => ({ date, from: midnights[i]!.getTime(), to: midnights[i + 1]!.getTime() }));
  return { start, days, previous: addDays(start, -7), next, from: midnights[0]!, to: midnights[7]!, spans };
}

/** A span of minutes of one local day, [from, to). */
export interface DayMinutes {
  from: number;
  to: number;
}

/** Where a span sits in a day's column: its first row (from 1) and how many rows it covers. */
export interface BoardRows {
  row: number;
  rows: number;
}

/** Minutes after local midnight of an instant in the zone. */
export function minuteOfDay(instant: Date, zone: string): number {
  const { wall } = wallClock(instant.getTime(), zone);
  return wall.getUTCHours() * 60 + wall.getUTCMinutes();
}

/** A local day with its midnights, for `minutesOnDay`. */
export const boardDay = (date: LocalDate, zone: string): BoardDay => ({
  date,
  from: wallTimeOrNextInstant(date, 0, zone).getTime(),
  to: wallTimeOrNextInstant(addDays(date, 1), 0, zone).getTime(),
});

/** The part of a day an instant span covers, in minutes of that day, or null when it misses the day. */
export function minutesOnDay(span: { start: Date; end: Date }, day: BoardDay, zone: string): DayMinutes | null {
  const dayStart = day.from;
  const dayEnd = day.to;
  if (span.end.getTime() <= dayStart || span.start.getTime() >= dayEnd) return null;
  const from = span.start.getTime() <= dayStart ? 0 : minuteOfDay(span.start, zone);
  const to = span.end.getTime() >= dayEnd ? DAY_MINUTES : minuteOfDay(span.end, zone);
  return { from, to: Math.max(to, from) };
}

/** A crew's working hours on a day (its own, or the business's), in minutes. */
export function hoursOnDay(hours: WeeklyHours, day: LocalDate): DayMinutes[] {
  const windows = hours[String(isoWeekday(day)) as keyof WeeklyHours] ?? [];
  return windows.map((w) => ({ from: minutesOfDay(w.start), to: minutesOfDay(w.end) }));
}

/**
 * The hours every day's column shows for a week: whole hours from the earliest start of any
 * working hours or job to the latest end, so nothing falls off the board and no column is taller
 * than it must be.
 */
export function boardWindow(spans: DayMinutes[]): DayMinutes {
  if (spans.length === 0) return DEFAULT_WINDOW;
  const from = Math.min(...spans.map((s) => s.from));
  const to = Math.max(...spans.map((s) => s.to));
  return { from: Math.floor(from / 60) * 60, to: Math.min(DAY_MINUTES, Math.max(Math.ceil(to / 60) * 60, Math.floor(from / 60) * 60 + 60)) };
}

/** The rows a span covers in a column showing `window`, clipped to it; at least one row. */
export function boardRows(span: DayMinutes, window: DayMinutes): BoardRows {
  const from = Math.min(Math.max(span.from, window.from), window.to - BOARD_STEP_MINUTES);
  const to = Math.min(Math.max(span.to, window.from), window.to);
  const row = Math.floor((from - window.from) / BOARD_STEP_MINUTES) + 1;
  const end = Math.ceil((to - window.from) / BOARD_STEP_MINUTES) + 1;
  return { row, rows: Math.max(1, end - row) };
}

/** How many rows a column showing `window` has. */
export const boardRowCount = (window: DayMinutes): number => Math.ceil((window.to - window.from) / BOARD_STEP_MINUTES);

/** Time off as the board reads it: one crew's, or the whole business's (crew null). */
export interface BoardTimeOff {
  crew_id: string | null;
  starts_at: Date;
  ends_at: Date;
  note: string | null;
}

/**
 * What the owner should look at about a booked job, in words: it lies outside its crew's
 * working hours, or in its crew's time off or the business's. Empty when it fits.
 */
export function boardFlags(
  job: { starts_at: Date; ends_at: Date },
  crew: { id: string; name: string; hours: WeeklyHours },
  o: { timeOff: BoardTimeOff[]; zone: string },
): string[] {
  const flags: string[] = [];
  if (!withinWorkingHours({ timezone: o.zone, weekly_hours: crew.hours }, job.starts_at, job.ends_at)) flags.push(outsideCrewHours(crew.name));
  const overlapping = o.timeOff.filter((t) => t.starts_at < job.ends_at && job.starts_at < t.ends_at);
  if (overlapping.some((t) => t.crew_id === crew.id)) flags.push(inCrewTimeOff(crew.name));
  const closed = overlapping.find((t) => t.crew_id === null);
  if (closed) flags.push(inBusinessTimeOff(closed.note));
  return flags;
}
