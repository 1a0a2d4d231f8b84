import { CLEANER_OPEN_TIMES_SHOWN, priceJob, type Job, type OpenTime, type OpenTimesRequest, type Quote } from '@frontdesk/domain';
import { latestChecks, prosServingZip, type Db, type ProCheck, type ProProfile } from '@frontdesk/db';
import { openTimesFor } from './open-times';

export interface CleanerOffer {
  pro: ProProfile;
  quote: Quote;
  times: OpenTime[];
  checks: ProCheck[];
}

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
 */
export async function findCleaners(
  db: Db,
  zip: string,
  job: Job,
  o: OpenTimesRequest & { limit: number; cache?: boolean },
): Promise<{ offers: CleanerOffer[]; serving: number; notOffering: number }> {
  const pros = await prosServingZip(db, zip);
  const jobKey = JSON.stringify(job);
  const priced = pros
    .map(({ pro, availabilityVersion }) => ({ pro, availabilityVersion, quote: quoteFor(pro, job, jobKey) }))
    .filter((p) => p.quote.unpriced.length === 0);
  if (priced.length === 0) return { offers: [], serving: pros.length, notOffering: pros.length };

  const found = await openTimesFor(
    db,
    priced.map((p) => ({ pro: p.pro, availabilityVersion: p.availabilityVersion, durationMinutes: p.quote.duration_minutes })),
    o,
  );
  const ranked = priced.map((p, i) => ({ i, earliest: found[i]!.earliest, total: p.quote.total_cents }));
  ranked.sort((a, b) => a.earliest - b.earliest || a.total - b.total || priced[a.i]!.pro.id.localeCompare(priced[b.i]!.pro.id));
  const shown: CleanerOffer[] = ranked.slice(0, o.limit).map(({ i }) => ({
    pro: priced[i]!.pro,
    quote: priced[i]!.quote,
    times: found[i]!.times.slice(0, CLEANER_OPEN_TIMES_SHOWN),
    checks: [],
  }));
  const checks = await latestChecks(
    db,
    shown.map((s) => s.pro.id),
  );
  for (const s of shown) s.checks = checks.get(s.pro.id) ?? [];
  return { offers: shown, serving: pros.length, notOffering: pros.length - priced.length };
}
