import { timeOffEndsBeforeStart, timeOffOver, timeOffTooLong } from './words/time-off';
import { notARealDate } from './words/time';
import { DATE_PATTERN } from './contract-schemas';
import { singleLine } from './plain-text';
import { addDays, formatDay, formatLabel, isValidLocalDate, localDate, parseStart, wallTimeOrNextInstant } from './time';

export const MAX_TIME_OFF_DAYS = 366;
/** Upcoming time off a business may hold at once: bounds every availability read. */
export const MAX_UPCOMING_TIME_OFF = 100;

const bound = (which: 'start' | 'end') =>
  singleLine({
    minLength: 10,
    maxLength: 40,
    description: which === 'start' ? 'YYYY-MM-DD (whole day) or an ISO 8601 date-time.' : 'YYYY-MM-DD (that day included) or an ISO 8601 date-time.',
  });

export const timeOffSchemas = {
  start: bound('start'),
  end: bound('end'),
  note: singleLine({ maxLength: 200, description: 'e.g. "Thanksgiving".' }),
} as const;

/**
 * The instants a time off covers, [start, end). A local date means the whole day in the
 * business's zone: as a start its first moment, as an end the first moment of the next
 * day, so `start: 2026-11-27, end: 2026-11-27` is that one Friday. Refuses an end not
 * after the start, more than a year, and a period already over.
 */
export function parseTimeOff(input: { start: string; end: string }, zone: string, now: Date): { start: Date; end: Date } {
  const instant = (value: string, field: 'start' | 'end') => {
    const trimmed = value.trim();
    if (new RegExp(DATE_PATTERN).test(trimmed)) {
      if (!isValidLocalDate(trimmed)) throw notARealDate(field, value);
      return wallTimeOrNextInstant(field === 'start' ? trimmed : addDays(trimmed, 1), 0, zone);
    }
    return parseStart(trimmed, zone, field);
  };
  const start = instant(input.start, 'start');
  const end = instant(input.end, 'end');
  if (end.getTime() <= start.getTime()) throw timeOffEndsBeforeStart();
  if (end.getTime() - start.getTime() > MAX_TIME_OFF_DAYS * 86_400_000) throw timeOffTooLong(MAX_TIME_OFF_DAYS);
  if (end.getTime() <= now.getTime()) throw timeOffOver();
  return { start, end };
}

/**
 * How a time off reads: whole days as days (`Wed, Nov 25, all day`, `Thu, Dec 24 to Sat,
 * Dec 26, all day`), anything else from its first to its last moment.
 */
export function timeOffLabel(start: Date, end: Date, zone: string): string {
  const first = localDate(start, zone);
  const after = localDate(end, zone);
  const midnight = (day: string, at: Date) => wallTimeOrNextInstant(day, 0, zone).getTime() === at.getTime();
  if (midnight(first, start) && midnight(after, end)) {
    const last = addDays(after, -1);
    return last === first ? `${formatDay(first)}, all day` : `${formatDay(first)} to ${formatDay(last)}, all day`;
  }
  return `${formatLabel(start, zone)} to ${formatLabel(end, zone)}`;
}
