import { isEmail } from './customer';
import { notAnEmail } from './words/input';
import {
  nearestOpenTimes,
  openTimes,
  whyNotOpen,
  type BusyBlock,
  type OpenTime,
  type OpenTimesQuery,
  type ScheduleRules,
  type StartRefusal,
  type TimeOff,
  type WeeklyHours,
} from './availability';
import { formatLabel, localDate } from './time';
import { withinWorkingHours } from './settings';
import { crewNameLength, everyCrewBusy, jobClashes, jobInCrewTimeOff, jobOutsideCrewHours } from './words/crews';

/**
 * Capacity: a business has one or more crews, each with its own line of jobs. A start is open
 * when at least one active crew can take the whole job then, by the same rules one schedule
 * has always been judged by (its hours, its time off and the business's, its own jobs and
 * their travel buffer, the notice). This file is where that is decided; the database's
 * per-crew exclusion constraint is the last word on double booking.
 */

export const MAX_CREWS = 50;
export const CREW_NAME_MAX = 60;

/** One crew as availability sees it. */
export interface CrewSchedule {
  id: string;
  /** Its own weekly hours, or null for the business's. */
  weekly_hours: WeeklyHours | null;
  /** Its live jobs (each with its travel buffer). */
  busy: BusyBlock[];
  /** Its own time off and the business's. */
  timeOff: TimeOff[];
}

/** An open-times question asked of every crew of a business: the business's rules, each crew's own line. */
export type CrewsQuery = Omit<OpenTimesQuery, 'busy' | 'timeOff'> & { crews: CrewSchedule[] };
type StartQuery = Omit<CrewsQuery, 'from' | 'days'>;

/** The single-schedule question for one crew: the business's rules with the crew's hours. */
function crewQuery<Q extends StartQuery>(q: Q, crew: CrewSchedule): Omit<Q, 'crews'> & { busy: BusyBlock[]; timeOff: TimeOff[] } {
  const { crews: _crews, ...rest } = q;
  const rules = crew.weekly_hours ? { ...q.rules, weekly_hours: crew.weekly_hours } : q.rules;
  return { ...rest, rules, busy: crew.busy, timeOff: crew.timeOff };
}

/** Starts open for at least one crew, earliest first, each once. */
export function openTimesOfCrews(q: CrewsQuery): OpenTime[] {
  if (q.crews.length === 1) return openTimes(crewQuery(q, q.crews[0]!));
  const byStart = new Map<number, OpenTime>();
  for (const crew of q.crews) {
    for (const t of openTimes(crewQuery(q, crew))) if (!byStart.has(t.start.getTime())) byStart.set(t.start.getTime(), t);
  }
  const all = [...byStart.values()].sort((a, b) => a.start.getTime() - b.start.getTime());
  return q.limit === undefined ? all : all.slice(0, q.limit);
}

/** The crews that can take a job from `start`, in the order given. */
export function crewsFreeAt(q: StartQuery, start: Date): CrewSchedule[] {
  return q.crews.filter((crew) => whyNotOpen(crewQuery(q, crew), start) === null);
}

// How far a start got with a crew before it was refused: the reason of the crew that came
// closest is the most useful one to tell.
const REACH: Record<StartRefusal, number> = { past: 0, too_soon: 0, outside_hours: 1, time_off: 2, taken: 3, off_step: 4 };

/**
 * Why no crew can take a job from `start`, or null when one can: with one crew exactly what
 * one schedule says; with several, the reason of the crew that came closest, and "every crew
 * is busy" when they all are.
 */
export function whyNoCrewFree(q: StartQuery, start: Date): { reason: StartRefusal; message: string } | null {
  let best: { reason: StartRefusal; message: string } | null = null;
  for (const crew of q.crews) {
    const why = whyNotOpen(crewQuery(q, crew), start);
    if (why === null) return null;
    if (best === null || REACH[why.reason] > REACH[best.reason]) best = why;
  }
  if (best === null) return null;
  if (best.reason === 'taken' && q.crews.length > 1)
    return { reason: 'taken', message: everyCrewBusy(formatLabel(start, q.rules.timezone, q.now), q.rules.travel_buffer_minutes) };
  return best;
}

/** The open times nearest to a refused start, across every crew, in time order. */
export function nearestOpenTimesOfCrews(q: StartQuery, start: Date, count = 3): OpenTime[] {
  if (q.crews.length === 1) return nearestOpenTimes(crewQuery(q, q.crews[0]!), start, count);
  const target = Math.max(start.getTime(), q.now.getTime());
  const byStart = new Map<number, OpenTime>();
  for (const crew of q.crews) for (const t of nearestOpenTimes(crewQuery(q, crew), start, count)) byStart.set(t.start.getTime(), t);
  return [...byStart.values()]
    .sort((a, b) => Math.abs(a.start.getTime() - target) - Math.abs(b.start.getTime() - target))
    .slice(0, count)
    .sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** Minutes a crew already holds on a local day (jobs with their travel buffer, by start day). */
export function heldMinutesOnDay(crew: CrewSchedule, day: string, zone: string): number {
  let minutes = 0;
  for (const b of crew.busy) if (localDate(b.start, zone) === day) minutes += (b.blockedUntil.getTime() - b.start.getTime()) / 60_000;
  return minutes;
}

/**
 * The assignment rule: of the crews free at a start, the one holding the fewest minutes that
 * local day, then the first in crew order (the order `free` is given in). Only data read under
 * the business's lock decides, so every replica picks the same crew.
 */
export function chooseCrew(free: CrewSchedule[], start: Date, zone: string): CrewSchedule | undefined {
  const day = localDate(start, zone);
  let best: CrewSchedule | undefined;
  let bestMinutes = Number.POSITIVE_INFINITY;
  for (const crew of free) {
    const held = heldMinutesOnDay(crew, day, zone);
    if (held < bestMinutes) {
      best = crew;
      bestMinutes = held;
    }
  }
  return best;
}

/**
 * The crew that takes a job from `start`, or undefined when none is free: the crew the job
 * should stay with (a series' crew, a moving job's own) when it is free, else the assignment
 * rule's pick among the free crews.
 */
export function crewToTake(q: StartQuery, start: Date, prefer?: string): CrewSchedule | undefined {
  const free = crewsFreeAt(q, start);
  return free.find((c) => c.id === prefer) ?? chooseCrew(free, start, q.rules.timezone);
}

/** A crew name as stored: trimmed, 1 to 60 characters. */
export function checkCrewName(name: string, field = 'name'): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > CREW_NAME_MAX) throw crewNameLength(field, CREW_NAME_MAX);
  return trimmed;
}

/** A job already booked for a time, as another crew would have to hold it. */
export interface HeldJob {
  start: Date;
  end: Date;
  blockedUntil: Date;
}

/**
 * Why a crew cannot do a job already booked for a time, or null: the job must lie in the
 * crew's hours, miss its time off and the business's, and miss its jobs with their travel
 * buffer. Notice and the start step do not apply: the time was agreed with the customer.
 */
export function whyCrewCannotTake(rules: ScheduleRules, crew: CrewSchedule, job: HeldJob, now: Date): string | null {
  const label = formatLabel(job.start, rules.timezone, now);
  const hours = { timezone: rules.timezone, weekly_hours: crew.weekly_hours ?? rules.weekly_hours };
  if (!withinWorkingHours(hours, job.start, job.end)) return jobOutsideCrewHours(label);
  const s = job.start.getTime();
  if (crew.timeOff.some((t) => t.start.getTime() < job.end.getTime() && s < t.end.getTime())) return jobInCrewTimeOff(label);
  if (crew.busy.some((b) => b.start.getTime() < job.blockedUntil.getTime() && s < b.blockedUntil.getTime()))
    return jobClashes(label, rules.travel_buffer_minutes);
  return null;
}

/** A crew's email as stored: trimmed, a mail address, or null for none (a blank is none). */
export function checkCrewEmail(email: string | null, field = 'email'): string | null {
  const e = email?.trim() || null;
  if (e !== null && !isEmail(e)) throw notAnEmail(field, e);
  return e;
}
