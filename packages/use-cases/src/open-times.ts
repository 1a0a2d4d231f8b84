import { namedCrew } from './crews';
import { firmQuoteFor } from './quotes';
import {
  dayRange,
  localDate,
  noOpenTimesMessage,
  openDays,
  openTimesOfCrews,
  parseOpenTimesRequest,
  presentOpenTime,
  type Job,
  type OpenTime,
  type OpenTimesFields,
  type OpenTimesRequest,
} from '@frontdesk/domain';
import { KeptValues, availabilityVersion, loadBusyMany, perOwner, scheduleRules, type Db, type Pro, type ProProfile } from '@frontdesk/db';

/** A pro whose open times are wanted, with the version its availability has now. */
export interface AvailabilityItem {
  pro: ProProfile;
  /** `${config_version}.${event_seq}.${hold_seq}`: changes with profile, hours, time off, bookings or holds. */
  availabilityVersion: string;
  durationMinutes: number;
}

type PresentedTime = ReturnType<typeof presentOpenTime>;

interface CachedTimes {
  version: string;
  /** When the first live hold it counted expires (epoch ms by this process's clock, Infinity for none): it is stale from then. */
  heldUntil: number;
  starts: number[];
  ends: number[];
  /** The starts as answers show them, made once per zone and year (a label names the year only when it is not the current one). */
  shown?: { zone: string; year: string; list: PresentedTime[] };
  /** What callers made from the list as shown (ListedTimes.keep), by their key, zone, year and first start. */
  made?: Map<string, unknown>;
}
/** At most this many things made from one cached list (jobs of the same length, crews, years): then it starts over. */
const MAX_MADE_PER_LIST = 16;
const MAX_CACHED_TIMES = 50_000;
// Per database: open times by pro and query, each good while the pro's availability version is the one it was read under.
// A hold expires by the database's clock with nothing written: a list that counted it is good only until then.
const timesCaches = perOwner<Db, KeptValues<CachedTimes, string>>(
  () => new KeptValues(MAX_CACHED_TIMES, (kept, version) => kept.version === version && Date.now() < kept.heldUntil),
);

/**
 * Open start times for many pros at once: the one implementation behind open_times,
 * available_times, log_lead and find_cleaners. Busy times of the pros not cached are read in
 * one query. Lists are cached under each pro's availability version and the query; time
 * only removes starts (the notice moves forward), so filtering a cached list by the current
 * notice keeps it exact. Cached data is never older than its version: it is read after it.
 * Booking writes never read this cache: they check under the pro's row lock.
 */
export async function openTimesFor(db: Db, items: AvailabilityItem[], o: OpenTimesAsked): Promise<ListedTimes[]> {
  const cache = timesCaches(db);
  // The days listed depend only on the zone: most pros of a ZIP share one.
  const rangeByZone = new Map<string, DayRange>();
  const ranges = items.map(({ pro }) => {
    let range = rangeByZone.get(pro.timezone);
    if (!range) rangeByZone.set(pro.timezone, (range = dayRange({ rules: scheduleRules(pro), now: o.now, from: o.date, days: o.days })));
    return range;
  });
  const keys = items.map(
    (it, i) => `${it.pro.id}|${it.durationMinutes}|${ranges[i]!.from}|${o.days}|${o.startAfter ?? ''}|${o.finishBy ?? ''}|${o.crewId ?? ''}`,
  );
  const misses = items.map((_, i) => i).filter((i) => o.cache === false || cache.get(keys[i]!, items[i]!.availabilityVersion) === undefined);
  if (misses.length > 0) await computeMisses(db, { items, ranges, keys, misses }, o);
  return items.map((it, i) => listed(cache.peek(keys[i]!)!, it.pro, ranges[i]!.from, o.now));
}

type DayRange = ReturnType<typeof dayRange>;

/** What is asked of open times: the days and window, whether a kept list may answer, and one crew's starts only. */
export type OpenTimesAsked = OpenTimesRequest & { cache?: boolean; crewId?: string };

/** The open times a cache miss lacks, worked out from one read of every missing pro's busy times, and kept. */
async function computeMisses(db: Db, m: { items: AvailabilityItem[]; ranges: DayRange[]; keys: string[]; misses: number[] }, o: OpenTimesAsked): Promise<void> {
  const { items, ranges, misses } = m;
  const cache = timesCaches(db);
  const from = new Date(Math.min(...misses.map((i) => ranges[i]!.firstInstant.getTime())));
  const to = new Date(Math.max(...misses.map((i) => ranges[i]!.endInstant.getTime())));
  const busy = await loadBusyMany(
    db,
    misses.map((i) => items[i]!.pro.id),
    { from, to },
  );
  cache.makeRoom(misses.length);
  for (const i of misses) {
    const { pro, durationMinutes } = items[i]!;
    const { crews } = busy.get(pro.id)!;
    const times = openTimesOfCrews({
      rules: scheduleRules(pro),
      durationMinutes,
      now: o.now,
      from: ranges[i]!.from,
      days: o.days,
      startAfter: o.startAfter,
      finishBy: o.finishBy,
      crews: o.crewId === undefined ? crews : crews.filter((c) => c.id === o.crewId),
    });
    const heldUntil = busy.get(pro.id)!.heldUntil ?? Number.POSITIVE_INFINITY;
    cache.set(m.keys[i]!, {
      version: items[i]!.availabilityVersion,
      heldUntil,
      starts: times.map((t) => t.start.getTime()),
      ends: times.map((t) => t.end.getTime()),
    });
  }
}

/** One pro's open times as a caller reads them. */
export interface ListedTimes {
  from: string;
  times: OpenTime[];
  earliest: number;
  /** When a live hold it counted expires (epoch ms, Infinity for none): a kept answer made from it is stale then. */
  heldUntil: number;
  present(zone: string, now: Date): PresentedTime[];
  /**
   * What `make` makes from this list as shown in `zone` at `now`, kept with the cached list
   * under `key` (which must name everything else `make` reads) while the list holds, its first
   * start and the zone's year unchanged: the same object again, not a copy.
   */
  keep<T extends object>(key: string, zone: string, now: Date, make: () => T): T;
}

/** A kept list from the first start outside the pro's notice now: time only removes starts, so the list stays exact. */
function listed(entry: CachedTimes, pro: ProProfile, from: string, now: Date): ListedTimes {
  const earliestAllowed = now.getTime() + pro.min_notice_minutes * 60_000;
  let first = 0;
  while (first < entry.starts.length && entry.starts[first]! < earliestAllowed) first += 1;
  return {
    from,
    earliest: entry.starts[first] ?? Number.POSITIVE_INFINITY,
    heldUntil: entry.heldUntil,
    // Materialized on demand: a search ranks 200 pros but shows a few of them.
    get times(): OpenTime[] {
      const out: OpenTime[] = [];
      for (let k = first; k < entry.starts.length; k += 1) out.push({ start: new Date(entry.starts[k]!), end: new Date(entry.ends[k]!) });
      return out;
    },
    // Formatting every start was a sixth of an open_times call: the cached list is formatted once.
    present(zone: string, at: Date): PresentedTime[] {
      const year = localDate(at, zone).slice(0, 4);
      if (entry.shown?.zone !== zone || entry.shown.year !== year) {
        const list = entry.starts.map((s, k) => presentOpenTime({ start: new Date(s), end: new Date(entry.ends[k]!) }, zone, at));
        entry.shown = { zone, year, list };
      }
      return entry.shown.list.slice(first);
    },
    keep<T extends object>(key: string, zone: string, at: Date, make: () => T): T {
      const k = `${key}|${zone}|${localDate(at, zone).slice(0, 4)}|${first}`;
      const made = (entry.made ??= new Map());
      let kept = made.get(k) as T | undefined;
      if (kept === undefined) {
        if (made.size >= MAX_MADE_PER_LIST) made.clear();
        made.set(k, (kept = make()));
      }
      return kept;
    },
  };
}

/**
 * A pro's open start times for a job, with its firm quote: the one body behind open_times
 * and available_times. The quote comes first (a job the pro does not offer is refused
 * before the request's days are looked at), then the request is parsed, then listed.
 */
export async function openTimesForJob(db: Db, pro: Pro, asked: { job: Job; fields: OpenTimesFields; crewId?: string }, now: Date) {
  const { job, fields, crewId } = asked;
  const jobKey = JSON.stringify(job);
  const quote = firmQuoteFor(pro, job, jobKey);
  const request = parseOpenTimesRequest(fields, now);
  if (crewId !== undefined) await namedCrew(db, pro.id, crewId);
  const found = await openTimesForDuration(db, pro, quote.duration_minutes, { ...request, crewId });
  // The list's cache key holds the pro's versions (price list included), the days and the crew; the job is this key.
  return found.keep(jobKey, pro.timezone, now, () => {
    const times = found.present(pro.timezone, now);
    return {
      quote,
      timezone: pro.timezone,
      from: found.from,
      days: request.days,
      count: times.length,
      open_times: openDays(
        times.map((t) => t.start),
        localDate(now, pro.timezone),
      ),
      ...(times.length === 0 ? { message: noOpenTimesMessage(request.days, found.from) } : {}),
    };
  });
}

/** Open starts of one pro for a job of a known length (log_lead prices what it can, then asks this). */
export async function openTimesForDuration(db: Db, pro: Pro, durationMinutes: number, o: OpenTimesAsked) {
  const [result] = await openTimesFor(db, [{ pro, availabilityVersion: availabilityVersion(pro), durationMinutes }], o);
  return result!;
}
