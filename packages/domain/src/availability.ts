import {
  addDays,
  formatDay,
  formatLabel,
  formatLocalIso,
  isoWeekday,
  localDate,
  minutesOfDay,
  wallTimeOrNextInstant,
  weekdayName,
  type LocalDate,
} from './time';
import {
  startBeforeStartAfter,
  startInPast,
  startInTimeOff,
  startOffStep,
  startOnClosedDay,
  startOutsideHours,
  startTaken,
  startTooSoon,
  startWouldNotFinish,
} from './words/open-times';

export interface WorkingWindow {
  /** `HH:MM`, local time. */
  start: string;
  /** `HH:MM`, local time; `24:00` for midnight at the end of the day. */
  end: string;
}

/** ISO weekday ("1" Monday … "7" Sunday) to the windows worked that day. */
export type WeeklyHours = Partial<Record<'1' | '2' | '3' | '4' | '5' | '6' | '7', WorkingWindow[]>>;

export interface ScheduleRules {
  timezone: string;
  weekly_hours: WeeklyHours;
  travel_buffer_minutes: number;
  slot_step_minutes: number;
  min_notice_minutes: number;
}

/** A live booking as the schedule sees it: busy from start until its end plus the buffer. */
export interface BusyBlock {
  start: Date;
  blockedUntil: Date;
  /** The booking holding the time, where known (a booking moving does not stand in its own way). */
  bookingId?: string;
}

export interface TimeOff {
  start: Date;
  end: Date;
}

export interface OpenTimesQuery {
  rules: ScheduleRules;
  durationMinutes: number;
  now: Date;
  /** First local day listed; defaults to today in the pro's zone. */
  from?: LocalDate;
  days: number;
  /** Earliest local start `HH:MM`. */
  startAfter?: string;
  /** Latest local end `HH:MM`. */
  finishBy?: string;
  busy: BusyBlock[];
  timeOff: TimeOff[];
  /** Stop after this many starts (ranking cleaners needs only the first). */
  limit?: number;
}

export interface OpenTime {
  start: Date;
  end: Date;
}

export const DEFAULT_WEEKLY_HOURS: WeeklyHours = {
  '1': [{ start: '08:00', end: '17:00' }],
  '2': [{ start: '08:00', end: '17:00' }],
  '3': [{ start: '08:00', end: '17:00' }],
  '4': [{ start: '08:00', end: '17:00' }],
  '5': [{ start: '08:00', end: '17:00' }],
  '6': [{ start: '09:00', end: '14:00' }],
};

export const DEFAULT_SCHEDULE_SETTINGS = {
  travel_buffer_minutes: 30,
  slot_step_minutes: 30,
  min_notice_minutes: 12 * 60,
} as const;

const MINUTE = 60_000;

/** The instant range [from, to) that `days` local days starting at `from` cover. */
export function dayRange(query: Pick<OpenTimesQuery, 'rules' | 'now' | 'from' | 'days'>): {
  from: LocalDate;
  firstInstant: Date;
  endInstant: Date;
} {
  const from = query.from ?? localDate(query.now, query.rules.timezone);
  return {
    from,
    firstInstant: wallTimeOrNextInstant(from, 0, query.rules.timezone),
    endInstant: wallTimeOrNextInstant(addDays(from, query.days), 0, query.rules.timezone),
  };
}

function overlaps(aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  return aStart < bEnd && bStart < aEnd;
}

/**
 * Half-open intervals sorted by start, with the running maximum of their ends, so an
 * overlap test is a binary search instead of a scan (300 bookings x 1,000 starts).
 */
class SortedIntervals {
  private readonly starts: number[];
  private readonly maxEnds: number[];
  constructor(intervals: [number, number][]) {
    intervals.sort((a, b) => a[0] - b[0]);
    this.starts = intervals.map((i) => i[0]);
    let max = Number.NEGATIVE_INFINITY;
    this.maxEnds = intervals.map((i) => (max = Math.max(max, i[1])));
  }

  /** Does any interval overlap [from, to)? */
  overlaps(from: number, to: number): boolean {
    // The intervals that start before `to` are a prefix; one of them overlaps iff the
    // largest end among them lies after `from`.
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid]! < to) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && this.maxEnds[lo - 1]! > from;
  }
}

/**
 * Open start times, earliest first. Slots step through each working window in real time
 * from its opening, so a DST change never produces a start twice nor a time that does not
 * exist; a job must fit the window (and finish_by) entirely, keep the minimum notice, miss
 * time off, and leave the travel buffer on both sides of every live booking.
 */
export function openTimes(q: OpenTimesQuery): OpenTime[] {
  const { rules } = q;
  const zone = rules.timezone;
  const { from } = dayRange(q);
  const duration = q.durationMinutes * MINUTE;
  const buffer = rules.travel_buffer_minutes * MINUTE;
  const step = Math.max(5, rules.slot_step_minutes) * MINUTE;
  const earliest = q.now.getTime() + rules.min_notice_minutes * MINUTE;
  const busy = new SortedIntervals(q.busy.map((b) => [b.start.getTime(), b.blockedUntil.getTime()]));
  const off = new SortedIntervals(q.timeOff.map((t) => [t.start.getTime(), t.end.getTime()]));
  const result: OpenTime[] = [];
  const limit = q.limit ?? Number.POSITIVE_INFINITY;

  for (let i = 0; i < q.days && result.length < limit; i += 1) {
    const day = addDays(from, i);
    const windows = rules.weekly_hours[String(isoWeekday(day)) as keyof WeeklyHours] ?? [];
    for (const window of windows) {
      let openMin = minutesOfDay(window.start);
      let closeMin = minutesOfDay(window.end);
      if (q.startAfter) openMin = Math.max(openMin, minutesOfDay(q.startAfter));
      if (q.finishBy) closeMin = Math.min(closeMin, minutesOfDay(q.finishBy));
      if (closeMin <= openMin) continue;
      const open = wallTimeOrNextInstant(day, openMin, zone).getTime();
      const close = wallTimeOrNextInstant(day, closeMin, zone).getTime();
      for (let start = open; start + duration <= close; start += step) {
        if (start < earliest) continue;
        const end = start + duration;
        if (off.overlaps(start, end)) continue;
        if (busy.overlaps(start, end + buffer)) continue;
        result.push({ start: new Date(start), end: new Date(end) });
      }
    }
  }
  result.sort((a, b) => a.start.getTime() - b.start.getTime());
  // Windows of one day are walked in order, so whole days beyond the limit were skipped
  // and the earliest starts are the first ones.
  return result.slice(0, limit);
}

export type StartRefusal = 'past' | 'too_soon' | 'outside_hours' | 'time_off' | 'taken' | 'off_step';

/**
 * Why `start` is not an open time, or null if it is one. The same rules as openTimes, so
 * a start that open_times listed is accepted until something takes it.
 */
export function whyNotOpen(q: Omit<OpenTimesQuery, 'from' | 'days'>, start: Date): { reason: StartRefusal; message: string } | null {
  const zone = q.rules.timezone;
  const day = localDate(start, zone);
  const sameDay = openTimes({ ...q, from: day, days: 1 });
  const t = start.getTime();
  if (sameDay.some((o) => o.start.getTime() === t)) return null;

  const label = formatLabel(start, zone, q.now);
  if (t <= q.now.getTime()) return { reason: 'past', message: startInPast(label) };
  if (t < q.now.getTime() + q.rules.min_notice_minutes * MINUTE) {
    return { reason: 'too_soon', message: startTooSoon(label, q.rules.min_notice_minutes / 60) };
  }
  const end = t + q.durationMinutes * MINUTE;
  const windows = q.rules.weekly_hours[String(isoWeekday(day)) as keyof WeeklyHours] ?? [];
  const inWindow = windows.some((w) => {
    const open = wallTimeOrNextInstant(day, minutesOfDay(w.start), zone).getTime();
    const close = wallTimeOrNextInstant(day, minutesOfDay(w.end), zone).getTime();
    return t >= open && end <= close;
  });
  if (windows.length === 0) return { reason: 'outside_hours', message: startOnClosedDay(label, weekdayName(day)) };
  if (!inWindow) return { reason: 'outside_hours', message: startOutsideHours(label, q.durationMinutes, windows, zone) };
  if (q.startAfter && t < wallTimeOrNextInstant(day, minutesOfDay(q.startAfter), zone).getTime()) {
    return { reason: 'outside_hours', message: startBeforeStartAfter(label, q.startAfter) };
  }
  if (q.finishBy && end > wallTimeOrNextInstant(day, minutesOfDay(q.finishBy), zone).getTime()) {
    return { reason: 'outside_hours', message: startWouldNotFinish(label, q.finishBy) };
  }
  if (q.timeOff.some((o) => overlaps(t, end, o.start.getTime(), o.end.getTime()))) return { reason: 'time_off', message: startInTimeOff(label) };
  const buffer = q.rules.travel_buffer_minutes * MINUTE;
  if (q.busy.some((b) => overlaps(t, end + buffer, b.start.getTime(), b.blockedUntil.getTime()))) {
    return { reason: 'taken', message: startTaken(label, q.rules.travel_buffer_minutes) };
  }
  return { reason: 'off_step', message: startOffStep(label, q.rules.slot_step_minutes) };
}

/**
 * The open times nearest to a start that was refused, in time order: the closest `count`
 * starts from the day before to the day after it (or from today, for a start in the past).
 */
export function nearestOpenTimes(q: Omit<OpenTimesQuery, 'from' | 'days'>, start: Date, count = 3): OpenTime[] {
  const zone = q.rules.timezone;
  const target = Math.max(start.getTime(), q.now.getTime());
  const from = addDays(localDate(new Date(target), zone), -1);
  return openTimes({ ...q, from, days: 3 })
    .sort((a, b) => Math.abs(a.start.getTime() - target) - Math.abs(b.start.getTime() - target))
    .slice(0, count)
    .sort((a, b) => a.start.getTime() - b.start.getTime());
}

/**
 * An open time as responses show it: local ISO start and end with the pro's offset, and a
 * label (with the year when `now` is given and the year differs).
 */
export function presentOpenTime(o: OpenTime, zone: string, now?: Date) {
  return {
    start: formatLocalIso(o.start, zone),
    end: formatLocalIso(o.end, zone),
    label: formatLabel(o.start, zone, now),
  };
}

/** A local day of open starts as open-times answers show it. */
export interface OpenDay {
  /** `Tue, Nov 24`, with the year when it is not `today`'s. */
  label: string;
  /** Each start as local ISO 8601 with the offset, as book_job and book_cleaning take it. */
  starts: string[];
}

/**
 * Local ISO starts (formatLocalIso, in order) grouped by their local day, which is their first
 * ten characters: the day is labelled once instead of with every start, and no end is
 * repeated (it is the start plus the job's duration). Every byte here is paid for by a model
 * reading the answer, so the date is not repeated beside the starts that begin with it.
 */
export function openDays(starts: readonly string[], today: LocalDate): OpenDay[] {
  const days: OpenDay[] = [];
  for (const start of starts) {
    const date = start.slice(0, 10);
    const last = days.at(-1);
    if (last?.starts[0]!.startsWith(date)) last.starts.push(start);
    else days.push({ label: date.slice(0, 4) === today.slice(0, 4) ? formatDay(date) : `${formatDay(date)}, ${date.slice(0, 4)}`, starts: [start] });
  }
  return days;
}

/** Every start of open days, in order: what a caller picks from to book. */
export const startsOf = (days: readonly Pick<OpenDay, 'starts'>[]): string[] => days.flatMap((d) => d.starts);

/** The starts of open days with a full label each (`Tue, Nov 24, 8:00 AM EST`, as presentOpenTime's), for pages that list them one by one. */
export function labelledStarts(days: readonly Pick<OpenDay, 'label' | 'starts'>[], zone: string): { start: string; label: string }[] {
  return days.flatMap((d) => d.starts.map((start) => ({ start, label: `${d.label}, ${formatLabel(new Date(start), zone).split(', ').at(-1)!}` })));
}

/** Is `now` inside one of the day's working windows (for how often a watcher should poll)? */
export function isWorkingTime(rules: ScheduleRules, now: Date): boolean {
  return workingTimeSpan(rules, now).working;
}

/**
 * isWorkingTime's answer for `now`, and the instants (ms since the epoch) between which it is
 * the same answer, `from` included and `until` not: the latest start or end of a window, or the
 * day's start, at or before `now`, and the first after it, or the next day's start.
 */
export function workingTimeSpan(rules: ScheduleRules, now: Date): { working: boolean; from: number; until: number } {
  const zone = rules.timezone;
  const day = localDate(now, zone);
  const windows = rules.weekly_hours[String(isoWeekday(day)) as keyof WeeklyHours] ?? [];
  const t = now.getTime();
  let from = wallTimeOrNextInstant(day, 0, zone).getTime();
  let until = wallTimeOrNextInstant(addDays(day, 1), 0, zone).getTime();
  let working = false;
  for (const w of windows) {
    const start = wallTimeOrNextInstant(day, minutesOfDay(w.start), zone).getTime();
    const end = wallTimeOrNextInstant(day, minutesOfDay(w.end), zone).getTime();
    if (t >= start && t < end) working = true;
    for (const at of [start, end]) {
      if (at <= t) from = Math.max(from, at);
      else until = Math.min(until, at);
    }
  }
  return { working, from, until };
}
