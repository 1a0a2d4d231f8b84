import { MOVE_DAYS_AROUND } from './policy';
import { addDays, isValidLocalDate, type LocalDate } from './time';

/**
 * The days a move page offers for a job (the customer's manage page and the owner's dashboard
 * alike): first the week before and the week after the job's own date, never before today;
 * then, a tap away, the week before what is shown (while that is not in the past) and the
 * week after it. A week picked with a link (`from`) is shown from that day, or from today
 * when that day has passed.
 */
export interface MoveWindow {
  /** The first day listed, and how many (open_times and available_times take both). */
  from: LocalDate;
  days: number;
  /** The last day listed. */
  through: LocalDate;
  /** The first day of the week before, if any of it is still ahead; of the week after. */
  earlier: LocalDate | null;
  later: LocalDate;
  /** Whether these are the days around the job (no week picked). */
  around: boolean;
}

const daysBetween = (a: LocalDate, b: LocalDate) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);
const latest = (a: LocalDate, b: LocalDate) => (a > b ? a : b);

export function moveWindow(o: { jobDate: LocalDate; today: LocalDate; from?: string }): MoveWindow {
  const { jobDate, today } = o;
  const picked = o.from !== undefined && isValidLocalDate(o.from) ? o.from : undefined;
  const from = picked ? latest(picked, today) : latest(addDays(jobDate, -MOVE_DAYS_AROUND), today);
  const through = picked ? addDays(from, MOVE_DAYS_AROUND - 1) : latest(addDays(jobDate, MOVE_DAYS_AROUND), addDays(from, MOVE_DAYS_AROUND - 1));
  return {
    from,
    days: daysBetween(from, through) + 1,
    through,
    earlier: from > today ? latest(addDays(from, -MOVE_DAYS_AROUND), today) : null,
    later: addDays(through, 1),
    around: !picked,
  };
}

/**
 * The open times nearest to a job's own start (before or after it, by how far), at most `n`,
 * soonest first among them; and the others, in their order. A move page lists the first
 * group first, so the times around the job's date are one look away.
 */
export function nearestFirst<T extends { start: string }>(times: readonly T[], around: Date, n: number): { nearest: T[]; rest: T[] } {
  const gap = (t: T) => Math.abs(Date.parse(t.start) - around.getTime());
  const picked = new Set([...times].sort((a, b) => gap(a) - gap(b) || Date.parse(a.start) - Date.parse(b.start)).slice(0, n));
  return { nearest: times.filter((t) => picked.has(t)), rest: times.filter((t) => !picked.has(t)) };
}
