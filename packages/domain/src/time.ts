import { notADateTime, notARealDateTime, notAnIsoDateTime, skippedByDaylightSaving } from './words/time';
import { instantsForWallTime, wallClock } from './zone';

/** One day as a span of milliseconds: for spans around an instant (calendar days are `addDays`). */
export const DAY_MS = 86_400_000;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A calendar day, `YYYY-MM-DD`, in some time zone. */
export type LocalDate = string;

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/** Today's date in the zone. */
export function localDate(instant: Date, zone: string): LocalDate {
  const { wall } = wallClock(instant.getTime(), zone);
  return `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`;
}

export function addDays(date: LocalDate, days: number): LocalDate {
  const t = new Date(Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10) + days));
  return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** ISO weekday of a calendar day: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: LocalDate): number {
  const day = new Date(Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10))).getUTCDay();
  return day === 0 ? 7 : day;
}

export function isValidLocalDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** Minutes after local midnight of `HH:MM` (24:00 allowed as the end of a day). */
export function minutesOfDay(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

/**
 * The instant a local wall-clock time names. In a DST gap the wall time does not exist
 * and this returns null; in an overlap it returns the earlier (daylight) instant.
 */
export function wallTimeToInstant(date: LocalDate, minutes: number, zone: string): Date | null {
  // Many pros share a zone and opening hours: the same wall times recur on every call.
  const key = `${zone}|${date}|${minutes}`;
  let ms = wallTimes.get(key);
  if (ms === undefined) {
    const localMs = Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) + minutes * 60_000;
    ms = instantsForWallTime(localMs, zone)[0] ?? null;
    if (wallTimes.size >= 50_000) wallTimes.clear();
    wallTimes.set(key, ms);
  }
  return ms === null ? null : new Date(ms);
}
const wallTimes = new Map<string, number | null>();

/**
 * Instant for a local wall time that may fall into a DST gap: clocks jump, so a time in the
 * gap is read as the first instant after it (opening hours of 02:00 on a spring-forward day
 * begin at 03:00).
 */
export function wallTimeOrNextInstant(date: LocalDate, minutes: number, zone: string): Date {
  for (let m = minutes; m < minutes + 24 * 60; m += 1) {
    const instant = wallTimeToInstant(date, m, zone);
    if (instant) return instant;
  }
  throw new Error(`no wall time after ${date} ${minutes} in ${zone}`);
}

/** `2026-11-24T09:00:00-05:00`: the form every start value takes in responses. */
export function formatLocalIso(instant: Date, zone: string): string {
  const { wall, info } = wallClock(instant.getTime(), zone);
  const off = Math.abs(info.offsetMinutes);
  const sign = info.offsetMinutes < 0 ? '-' : '+';
  return (
    `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}` +
    `T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(off / 60))}:${pad(off % 60)}`
  );
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The weekday's full name of a local date: `Sunday`. */
export function weekdayName(date: LocalDate): string {
  return WEEKDAY_NAMES[isoWeekday(date) % 7]!;
}

/**
 * `Tue, Nov 24, 9:00 AM EST`: the human label next to each start. Given `now`, a start in
 * another year than now's (in the same zone) carries its year, `Mon, Nov 24, 2025, 10:00 AM
 * EST`, so a date a year off never reads like next week.
 */
export function formatLabel(instant: Date, zone: string, now?: Date): string {
  const { wall, info } = wallClock(instant.getTime(), zone);
  const h = wall.getUTCHours();
  const h12 = h % 12 === 0 ? 12 : h % 12;
  const otherYear = now !== undefined && localDate(now, zone).slice(0, 4) !== String(wall.getUTCFullYear());
  return `${WEEKDAYS[wall.getUTCDay()]}, ${MONTHS[wall.getUTCMonth()]} ${wall.getUTCDate()}, ${otherYear ? `${wall.getUTCFullYear()}, ` : ''}${h12}:${pad(wall.getUTCMinutes())} ${h < 12 ? 'AM' : 'PM'} ${info.abbreviation}`;
}

/** `10:42 AM EST`: a time of day as a sentence says it (a hold's end on the same day). */
export function formatTimeOfDay(instant: Date, zone: string): string {
  const { wall, info } = wallClock(instant.getTime(), zone);
  const h = wall.getUTCHours();
  return `${h % 12 === 0 ? 12 : h % 12}:${pad(wall.getUTCMinutes())} ${h < 12 ? 'AM' : 'PM'} ${info.abbreviation}`;
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** `November 2026`: a month (`2026-11`) as a page names it. */
export const formatMonth = (month: string): string => `${MONTH_NAMES[+month.slice(5, 7) - 1]} ${month.slice(0, 4)}`;

/** `Wed, Nov 25`: a calendar day as labels write it. */
export function formatDay(date: LocalDate): string {
  const t = new Date(Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)));
  return `${WEEKDAYS[t.getUTCDay()]}, ${MONTHS[t.getUTCMonth()]} ${t.getUTCDate()}`;
}

const ISO_WITH_OFFSET = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const ISO_LOCAL = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?$/;

/**
 * Reads a start value: ISO 8601 with an offset, or without one meaning the pro's local time.
 * Throws InvalidInputError naming `field` for anything else, including a local time that
 * does not exist because clocks spring forward.
 */
export function parseStart(value: string, zone: string, field = 'start'): Date {
  const trimmed = value.trim();
  const withOffset = ISO_WITH_OFFSET.exec(trimmed);
  if (withOffset) {
    const [, date, hh, mm, ss] = withOffset;
    if (!isValidLocalDate(date!) || Number(hh) > 23 || Number(mm) > 59 || Number(ss ?? 0) > 59) throw notARealDateTime(field, value);
    const instant = new Date(trimmed);
    if (Number.isNaN(instant.getTime())) throw notAnIsoDateTime(field, value);
    return instant;
  }
  const local = ISO_LOCAL.exec(trimmed);
  if (local) {
    const [, date, hh, mm, ss] = local;
    if (!isValidLocalDate(date!) || Number(hh) > 23 || Number(mm) > 59 || Number(ss ?? 0) > 59) throw notARealDateTime(field, value);
    const instant = wallTimeToInstant(date!, Number(hh) * 60 + Number(mm), zone);
    if (!instant) throw skippedByDaylightSaving(field, value, zone);
    return instant;
  }
  throw notADateTime(field, value);
}

/** The instants a local month (YYYY-MM) starts and ends in a zone. */
export function monthRange(month: string, zone: string): { start: Date; end: Date } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  return { start: wallTimeOrNextInstant(`${month}-01`, 0, zone), end: wallTimeOrNextInstant(`${next}-01`, 0, zone) };
}
