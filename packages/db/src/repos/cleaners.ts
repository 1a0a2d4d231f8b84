import { dayRange, openTimes, priceJob, type Job, type OpenTime, type Quote } from '@frontdesk/domain';
import type { Db } from '../connect';
import type { ProProfile } from '../tables/pros';
import type { ProCheck } from '../tables/pro-checks';
import { checkOpenTimesOptions, type OpenTimesOptions } from './availability';
import { loadBusyMany } from './bookings';
import { latestChecks } from './checks';
import { prosServingZip, scheduleRules } from './pros';

export interface CleanerOffer {
  pro: ProProfile;
  quote: Quote;
  times: OpenTime[];
  checks: ProCheck[];
}

interface CachedTimes {
  version: string;
  /** Every open start of the window, as computed then (epoch ms, with ends). */
  starts: number[];
  ends: number[];
}
const timesCaches = new WeakMap<Db, Map<string, CachedTimes>>();
const MAX_CACHED_TIMES = 50_000;
// A quote depends only on the job and the pro's price list, which config_version versions.
const quoteCache = new Map<string, Quote>();
const MAX_CACHED_QUOTES = 50_000;

function quoteFor(pro: ProProfile, job: Job, jobKey: string): Quote {
  const key = `${pro.id}|${pro.config_version}|${jobKey}`;
  let quote = quoteCache.get(key);
  if (!quote) {
    if (quoteCache.size >= MAX_CACHED_QUOTES) quoteCache.clear();
    quote = priceJob(job, pro.price_list);
    quoteCache.set(key, quote);
  }
  return quote;
}

/**
 * Cleaners who serve a ZIP and can price the job firmly, each with its own total and open
 * times, earliest first, then cheapest. Batched, never one query per pro: pros by ZIP (GIN
 * index), the busy times of those whose open times are not cached, then the checks of
 * those shown.
 *
 * A pro's open times are cached under its availability version (profile, hours and time
 * off via config_version; bookings via the event counter, bumped under the row lock by
 * every booking and cancellation) and the query. Time only removes starts (the notice
 * moves forward), so a cached list filtered by the current notice is exact.
 */
export async function findCleaners(
  db: Db,
  zip: string,
  job: Job,
  o: OpenTimesOptions & { limit: number; shownTimes?: number; cache?: boolean },
): Promise<{ offers: CleanerOffer[]; serving: number; notOffering: number }> {
  checkOpenTimesOptions(o);
  const pros = await prosServingZip(db, zip);
  const jobKey = JSON.stringify(job);
  const priced = pros
    .map(({ pro, availabilityVersion }) => ({ pro, availabilityVersion, quote: quoteFor(pro, job, jobKey) }))
    .filter((p) => p.quote.unpriced.length === 0);
  if (priced.length === 0) return { offers: [], serving: pros.length, notOffering: pros.length };

  let cache = timesCaches.get(db);
  if (!cache) timesCaches.set(db, (cache = new Map()));
  // The days listed depend only on the zone: most pros of a ZIP share one.
  const rangeByZone = new Map<string, ReturnType<typeof dayRange>>();
  const ranges = priced.map(({ pro }) => {
    let range = rangeByZone.get(pro.timezone);
    if (!range) rangeByZone.set(pro.timezone, (range = dayRange({ rules: scheduleRules(pro), now: o.now, from: o.date, days: o.days })));
    return range;
  });
  const keys = priced.map(
    ({ pro, quote }, i) => `${pro.id}|${quote.duration_minutes}|${ranges[i]!.from}|${o.days}|${o.startAfter ?? ''}|${o.finishBy ?? ''}`,
  );
  const misses = priced.map((_, i) => i).filter((i) => o.cache === false || cache.get(keys[i]!)?.version !== priced[i]!.availabilityVersion);
  if (misses.length > 0) {
    const from = new Date(Math.min(...misses.map((i) => ranges[i]!.firstInstant.getTime())));
    const to = new Date(Math.max(...misses.map((i) => ranges[i]!.endInstant.getTime())));
    const busy = await loadBusyMany(db, misses.map((i) => priced[i]!.pro.id), from, to);
    if (cache.size + misses.length > MAX_CACHED_TIMES) cache.clear();
    for (const i of misses) {
      const { pro, quote, availabilityVersion } = priced[i]!;
      const times = openTimes({
        rules: scheduleRules(pro),
        durationMinutes: quote.duration_minutes,
        now: o.now,
        from: ranges[i]!.from,
        days: o.days,
        startAfter: o.startAfter,
        finishBy: o.finishBy,
        ...busy.get(pro.id)!,
      });
      cache.set(keys[i]!, { version: availabilityVersion, starts: times.map((t) => t.start.getTime()), ends: times.map((t) => t.end.getTime()) });
    }
  }

  const ranked = priced.map((p, i) => {
    const entry = cache.get(keys[i]!)!;
    const earliestAllowed = o.now.getTime() + p.pro.min_notice_minutes * 60_000;
    let first = 0;
    while (first < entry.starts.length && entry.starts[first]! < earliestAllowed) first += 1;
    return { i, entry, first, earliest: entry.starts[first] ?? Number.POSITIVE_INFINITY, total: p.quote.total_cents };
  });
  ranked.sort((a, b) => a.earliest - b.earliest || a.total - b.total || priced[a.i]!.pro.id.localeCompare(priced[b.i]!.pro.id));
  const shown: CleanerOffer[] = ranked.slice(0, o.limit).map(({ i, entry, first }) => {
    const upto = Math.min(entry.starts.length, first + (o.shownTimes ?? 5));
    const times: OpenTime[] = [];
    for (let k = first; k < upto; k += 1) times.push({ start: new Date(entry.starts[k]!), end: new Date(entry.ends[k]!) });
    return { pro: priced[i]!.pro, quote: priced[i]!.quote, times, checks: [] };
  });
  const checks = await latestChecks(db, shown.map((s) => s.pro.id));
  for (const s of shown) s.checks = checks.get(s.pro.id) ?? [];
  return { offers: shown, serving: pros.length, notOffering: pros.length - priced.length };
}
