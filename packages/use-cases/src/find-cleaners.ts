import {
  CLEANER_OPEN_TIMES_SHOWN,
  addDays,
  localDate,
  noCleanerToFind,
  normalizeJob,
  parseOpenTimesRequest,
  requireAddOnsOffered,
  wallTimeOrNextInstant,
  type Job,
  type JobInput,
  type OpenTime,
  type OpenTimesFields,
  type OpenTimesRequest,
  type Quote,
} from '@frontdesk/domain';
import { KeptValues, latestChecks, perOwner, proReader, prosServingZip, type ChangeFeed, type Db, type ProCheck, type ProProfile } from '@frontdesk/db';
import { openTimesFor, openTimesForJob } from './open-times';
import { quoteFor } from './quotes';

export interface CleanerOffer {
  pro: ProProfile;
  quote: Quote;
  times: OpenTime[];
  checks: ProCheck[];
}

/** A cleaner serving the ZIP who does not offer all of the job, with what it lacks (a quote's `unpriced`). */
export interface NotOffered {
  pro: ProProfile;
  unpriced: string[];
}

export interface CleanerSearch {
  offers: CleanerOffer[];
  serving: number;
  notOffering: number;
  /** Who of `notOffering` lacks what, by name, at most `limit` of them. */
  notOffered: NotOffered[];
}

interface KeptSearch {
  /** ChangeFeed stamp taken before the search read anything. */
  stamp: number;
  /** Every pro serving the ZIP: a change to any of them may change the answer. */
  proIds: string[];
  /** When the feed last found none of proIds changed since the stamp (ChangeFeed.allUnchanged). */
  seen: { seq: number };
  /** The answer holds until then (a listed start falls inside its pro's notice, or a new day begins). */
  validUntil: number;
  /** When a live hold it counted expires (epoch ms by this process's clock): the answer is stale then. */
  heldUntil: number;
  search: CleanerSearch;
}

// Per change feed (per process): finished searches (or one under way), by ZIP, job and request.
const MAX_KEPT_SEARCHES = 10_000;
const searches = perOwner<ChangeFeed, KeptValues<KeptSearch | Promise<KeptSearch | null>>>(() => new KeptValues(MAX_KEPT_SEARCHES));

/** How many searches under way a caller waits for before it runs its own (findCleaners). */
const SHARED_SEARCH_ROUNDS = 3;

/**
 * Cleaners who serve a ZIP and can price the job firmly, each with its own total and open
 * times, earliest first, then cheapest; those who do not offer all of it are named apart
 * (notOffered), and an add-on none of them offers is refused as quote_job refuses one its
 * business does not offer (requireAddOnsOffered). With a change feed, a finished search is kept and
 * answered again while no pro of the ZIP changed, no profile anywhere changed (a pro may
 * have joined the ZIP), and time has not moved past what it listed; searches that miss
 * together share one. Booking never reads this: it checks under the pro's row lock.
 */
export async function findCleaners(
  db: Db,
  zip: string,
  job: Job,
  o: OpenTimesRequest & { limit: number; cache?: boolean; changes?: ChangeFeed },
): Promise<CleanerSearch> {
  const changes = o.changes;
  if (!changes?.live || o.cache === false) return (await search(db, zip, job, o)).search;
  const kept = searches(changes);
  const key = `${zip}|${JSON.stringify(job)}|${o.date ?? ''}|${o.days}|${o.startAfter ?? ''}|${o.finishBy ?? ''}|${o.limit}`;
  const current = (k: KeptSearch | null | undefined): k is KeptSearch =>
    !!k && o.now.getTime() < k.validUntil && Date.now() < k.heldUntil && changes.profilesUnchanged(k.stamp) && changes.allUnchanged(k.proIds, k.stamp, k.seen);
  // A search under way is waited for, then judged like a finished one. When it ends stale (a
  // change came while it ran), a newer one that another caller started meanwhile is shared
  // rather than each waiter starting its own: a busy ZIP then runs one search a change, not one
  // a waiter. A few rounds at most, so a ZIP that changes without pause still gets its answer.
  let found = kept.peek(key);
  for (let round = 0; round < SHARED_SEARCH_ROUNDS; round += 1) {
    const waited = found instanceof Promise ? await found : found;
    if (current(waited)) return waited.search;
    const newer = kept.peek(key);
    if (!(newer instanceof Promise) || newer === found) break;
    found = newer;
  }

  const stamp = changes.stamp()!;
  const running = search(db, zip, job, o).then((result) => ({ stamp, seen: { seq: -1 }, ...result }));
  kept.keep(
    key,
    running.catch(() => null),
  );
  try {
    const done = await running;
    kept.set(key, done);
    return done.search;
  } catch (err) {
    kept.delete(key);
    throw err;
  }
}

async function search(db: Db, zip: string, job: Job, o: OpenTimesRequest & { limit: number; cache?: boolean }): Promise<Omit<KeptSearch, 'stamp' | 'seen'>> {
  const pros = await prosServingZip(db, zip);
  requireAddOnsOffered(
    job,
    pros.map((p) => p.pro.price_list),
    zip,
  );
  const jobKey = JSON.stringify(job);
  const quoted = pros.map(({ pro, availabilityVersion }) => ({ pro, availabilityVersion, quote: quoteFor(pro, job, jobKey) }));
  const priced = quoted.filter((p) => p.quote.unpriced.length === 0);
  const notOffered = quoted
    .filter((p) => p.quote.unpriced.length > 0)
    .map((p) => ({ pro: p.pro, unpriced: p.quote.unpriced }))
    .sort((a, b) => a.pro.name.localeCompare(b.pro.name) || a.pro.id.localeCompare(b.pro.id))
    .slice(0, o.limit);
  const proIds = pros.map((p) => p.pro.id);
  // A new local day changes the days listed.
  const nextDay = Math.min(
    ...[...new Set(pros.map((p) => p.pro.timezone))].map((zone) => wallTimeOrNextInstant(addDays(localDate(o.now, zone), 1), 0, zone).getTime()),
  );
  if (priced.length === 0)
    return {
      proIds,
      validUntil: nextDay,
      heldUntil: Number.POSITIVE_INFINITY,
      search: { offers: [], serving: pros.length, notOffering: pros.length, notOffered },
    };

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
  // The ranking holds until some pro's earliest start comes inside its notice.
  const validUntil = Math.min(nextDay, ...priced.map((p, i) => found[i]!.earliest - p.pro.min_notice_minutes * 60_000));
  const heldUntil = Math.min(...found.map((f) => f.heldUntil));
  return { proIds, validUntil, heldUntil, search: { offers: shown, serving: pros.length, notOffering: pros.length - priced.length, notOffered } };
}

/** find_cleaners as asked: the job and its days read from the request, at most `limit` cleaners (10 by default). */
export async function findCleanersFor(db: Db, input: JobInput & OpenTimesFields & { zip: string; limit?: number }, o: { now: Date; changes?: ChangeFeed }) {
  const job = normalizeJob(input);
  return { job, search: await findCleaners(db, input.zip, job, { ...parseOpenTimesRequest(input, o.now), limit: input.limit ?? 10, changes: o.changes }) };
}

/**
 * One cleaner's open times for a job, the cleaner read through a reader this process keeps
 * current by the change feed (a poll costs no round trip for the pro).
 */
export function cleanerTimesReader(db: Db, changes: ChangeFeed | undefined) {
  const pros = proReader(db, changes);
  return async (input: JobInput & OpenTimesFields & { cleaner_id: string }, now: Date) => {
    const pro = await pros.byId(input.cleaner_id);
    if (!pro) throw noCleanerToFind(input.cleaner_id);
    return { pro, ...(await openTimesForJob(db, pro, { job: normalizeJob(input), fields: input }, now)) };
  };
}
