import {
  InvalidInputError,
  dayRange,
  isValidLocalDate,
  minutesOfDay,
  openTimes,
  requireFirmQuote,
  type Job,
  type OpenTime,
  type Quote,
} from '@frontdesk/domain';
import type { Db } from '../connect';
import type { Pro } from '../tables/pros';
import { loadBusy } from './bookings';
import { scheduleRules } from './pros';

export interface OpenTimesOptions {
  date?: string;
  days: number;
  startAfter?: string;
  finishBy?: string;
  now: Date;
}

/** Checks the parts of an open-times request a schema cannot (a real date, a sane window). */
export function checkOpenTimesOptions(o: OpenTimesOptions): void {
  if (o.date !== undefined && !isValidLocalDate(o.date)) {
    throw new InvalidInputError(`date "${o.date}" is not a real calendar day (YYYY-MM-DD).`);
  }
  if (o.startAfter && o.finishBy && minutesOfDay(o.finishBy) <= minutesOfDay(o.startAfter)) {
    throw new InvalidInputError(`finish_by (${o.finishBy}) must be later than start_after (${o.startAfter}).`);
  }
}

/**
 * A pro's open start times for a job: the one implementation behind open_times,
 * available_times and find_cleaners. One query per table for the whole range.
 */
export async function findOpenTimes(
  db: Db,
  pro: Pro,
  job: Job,
  o: OpenTimesOptions,
): Promise<{ quote: Quote; from: string; times: OpenTime[] }> {
  const quote = requireFirmQuote(job, pro.price_list);
  return { quote, ...(await openTimesForDuration(db, pro, quote.duration_minutes, o)) };
}

/** Open starts for a job of a known length (log_lead prices what it can, then asks this). */
export async function openTimesForDuration(
  db: Db,
  pro: Pro,
  durationMinutes: number,
  o: OpenTimesOptions,
): Promise<{ from: string; times: OpenTime[] }> {
  checkOpenTimesOptions(o);
  const rules = scheduleRules(pro);
  const range = dayRange({ rules, now: o.now, from: o.date, days: o.days });
  const { busy, timeOff } = await loadBusy(db, pro.id, range.firstInstant, range.endInstant);
  const times = openTimes({
    rules,
    durationMinutes,
    now: o.now,
    from: range.from,
    days: o.days,
    startAfter: o.startAfter,
    finishBy: o.finishBy,
    busy,
    timeOff,
  });
  return { from: range.from, times };
}

