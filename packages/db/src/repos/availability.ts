import {
  DEFAULT_DAYS,
  InvalidInputError,
  dayRange,
  isValidLocalDate,
  minutesOfDay,
  openTimes,
  requireFirmQuote,
  type Job,
  type OpenTimesFields,
  type OpenTime,
  type Quote,
} from '@frontdesk/domain';
import type { Db } from '../connect';
import type { Pro, ProProfile } from '../tables/pros';
import { loadBusyMany } from './bookings';
import { scheduleRules } from './pros';

export interface OpenTimesOptions {
  date?: string;
  days: number;
  startAfter?: string;
  finishBy?: string;
  now: Date;
}

/** The request's open-times fields as options, with the contract's default of 7 days. */
export function openTimesOptions(input: OpenTimesFields, now: Date): OpenTimesOptions {
  return { date: input.date, days: input.days ?? DEFAULT_DAYS, startAfter: input.start_after, finishBy: input.finish_by, now };
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

/** A pro whose open times are wanted, with the version its availability has now. */
export interface AvailabilityItem {
  pro: ProProfile;
  /** `${config_version}.${event_seq}`: changes with profile, hours, time off or bookings. */
  availabilityVersion: string;
  durationMinutes: number;
}

interface CachedTimes {
  version: string;
  starts: number[];
  ends: number[];
}
const timesCaches = new WeakMap<Db, Map<string, CachedTimes>>();
const MAX_CACHED_TIMES = 50_000;

export function availabilityVersion(pro: Pick<Pro, 'config_version' | 'event_seq'>): string {
  return `${pro.config_version}.${pro.event_seq}`;
}

/**
 * Open start times for many pros at once: the one implementation behind open_times,
 * available_times, log_lead and find_cleaners. Busy times of the pros not cached are read in
 * one query. Lists are cached under each pro's availability version and the query; time
 * only removes starts (the notice moves forward), so filtering a cached list by the current
 * notice keeps it exact. Cached data is never older than its version: it is read after it.
 * Booking writes never read this cache: they check under the pro's row lock.
 */
export async function openTimesFor(
  db: Db,
  items: AvailabilityItem[],
  o: OpenTimesOptions & { cache?: boolean },
): Promise<{ from: string; times: OpenTime[]; earliest: number }[]> {
  checkOpenTimesOptions(o);
  let cache = timesCaches.get(db);
  if (!cache) timesCaches.set(db, (cache = new Map()));
  // The days listed depend only on the zone: most pros of a ZIP share one.
  const rangeByZone = new Map<string, ReturnType<typeof dayRange>>();
  const ranges = items.map(({ pro }) => {
    let range = rangeByZone.get(pro.timezone);
    if (!range) rangeByZone.set(pro.timezone, (range = dayRange({ rules: scheduleRules(pro), now: o.now, from: o.date, days: o.days })));
    return range;
  });
  const keys = items.map((it, i) => `${it.pro.id}|${it.durationMinutes}|${ranges[i]!.from}|${o.days}|${o.startAfter ?? ''}|${o.finishBy ?? ''}`);
  const misses = items.map((_, i) => i).filter((i) => o.cache === false || cache.get(keys[i]!)?.version !== items[i]!.availabilityVersion);
  if (misses.length > 0) {
    const from = new Date(Math.min(...misses.map((i) => ranges[i]!.firstInstant.getTime())));
    const to = new Date(Math.max(...misses.map((i) => ranges[i]!.endInstant.getTime())));
    const busy = await loadBusyMany(db, misses.map((i) => items[i]!.pro.id), from, to);
    if (cache.size + misses.length > MAX_CACHED_TIMES) cache.clear();
    for (const i of misses) {
      const { pro, durationMinutes } = items[i]!;
      const times = openTimes({
        rules: scheduleRules(pro),
        durationMinutes,
        now: o.now,
        from: ranges[i]!.from,
        days: o.days,
        startAfter: o.startAfter,
        finishBy: o.finishBy,
        ...busy.get(pro.id)!,
      });
      cache.set(keys[i]!, { version: items[i]!.availabilityVersion, starts: times.map((t) => t.start.getTime()), ends: times.map((t) => t.end.getTime()) });
    }
  }
  return items.map((it, i) => {
    const entry = cache.get(keys[i]!)!;
    const earliestAllowed = o.now.getTime() + it.pro.min_notice_minutes * 60_000;
    let first = 0;
    while (first < entry.starts.length && entry.starts[first]! < earliestAllowed) first += 1;
    return {
      from: ranges[i]!.from,
      earliest: entry.starts[first] ?? Number.POSITIVE_INFINITY,
      // Materialized on demand: a search ranks 200 pros but shows a few of them.
      get times(): OpenTime[] {
        const out: OpenTime[] = [];
        for (let k = first; k < entry.starts.length; k += 1) out.push({ start: new Date(entry.starts[k]!), end: new Date(entry.ends[k]!) });
        return out;
      },
    };
  });
}

/** A pro's open start times for a job, with its firm quote (refused if not offered). */
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
  const [result] = await openTimesFor(db, [{ pro, availabilityVersion: availabilityVersion(pro), durationMinutes }], o);
  return { from: result!.from, times: result!.times };
}
