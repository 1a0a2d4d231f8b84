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
import {
  KeptValues,
  availabilityVersion,
  latestChecks,
  perOwner,
  proHeads,
  proReader,
  prosServingZip,
  type ChangeFeed,
  type Db,
  type ProCheck,
  type ProProfile,
} from '@frontdesk/db';
import { openTimesFor, openTimesForJob, type ListedTimes } from './open-times';
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

/** One cleaner of a kept search who can price the job: what the answer takes from it, good while the feed hears nothing of its pro. */
interface Part {
  pro: ProProfile;
  quote: Quote;
  /** The availability version its times were listed under. */
  version: string;
  /** Its first listed start (Infinity for none): what it is ranked by. */
  earliest: number;
  /** Until then its first start stays outside its notice, so its list stays what it was. */
  validUntil: number;
  /** When a live hold it counted expires (epoch ms by this process's clock). */
  heldUntil: number;
  /** Its offer once shown (times and checks read then), shown again while the part holds. */
  offer?: CleanerOffer;
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
  /** When a new local day begins for a pro of the ZIP: the days listed change, so every part does. */
  nextDay: number;
  /** The cleaners who can price the job, in the order read: a change to one renews its part alone. */
  parts: Part[];
  search: CleanerSearch;
}

type Searched = Omit<KeptSearch, 'stamp' | 'seen'>;

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
 * have joined the ZIP), and time has not moved past what it listed; when some did, only those
 * cleaners are read again (refresh); searches that miss together share one. Booking never
 * reads this: it checks under the pro's row lock.
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
  let last: KeptSearch | null = null;
  for (let round = 0; round < SHARED_SEARCH_ROUNDS; round += 1) {
    const waited = found instanceof Promise ? await found : found;
    if (current(waited)) return waited.search;
    last = waited ?? last;
    const newer = kept.peek(key);
    if (!(newer instanceof Promise) || newer === found) break;
    found = newer;
  }

  const stamp = changes.stamp()!;
  const base = last;
  const running = (base ? refresh(db, base, changes, o) : Promise.resolve(null))
    .then((renewed) => renewed ?? search(db, zip, job, o))
    .then((result) => ({ stamp, seen: { seq: -1 }, ...result }));
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

async function search(db: Db, zip: string, job: Job, o: OpenTimesRequest & { limit: number; cache?: boolean }): Promise<Searched> {
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
  const found = await listTimes(
    db,
    priced.map((p) => ({ pro: p.pro, quote: p.quote, version: p.availabilityVersion })),
    o,
  );
  const parts = priced.map((p, i) => partOf(p.pro, p.quote, p.availabilityVersion, found[i]!));
  const zipWide = { serving: pros.length, notOffering: pros.length - priced.length, notOffered };
  return { proIds, nextDay, parts, ...(await assemble(db, zipWide, { parts, listed: new Map(parts.map((p, i) => [p, found[i]!])), nextDay }, o)) };
}

/**
 * A kept search brought up to date by reading again only the cleaners it no longer holds for:
 * those the feed heard a change of since its stamp (a booking, a hold, a check), and those
 * whose first start came inside their notice or whose counted hold expired. Null when that
 * cannot be: a profile changed (a pro may have joined or left the ZIP, or changed its prices)
 * or a new day began; the whole search runs then.
 */
async function refresh(db: Db, base: KeptSearch, changes: ChangeFeed, o: OpenTimesRequest & { limit: number }): Promise<Searched | null> {
  if (!changes.profilesUnchanged(base.stamp) || o.now.getTime() >= base.nextDay) return null;
  const at = o.now.getTime();
  const clock = Date.now();
  const stale = base.parts.filter((p) => at >= p.validUntil || clock >= p.heldUntil || !changes.unchanged(p.pro.id, base.stamp));
  const heads = await proHeads(
    db,
    stale.map((p) => p.pro.id),
  );
  // A profile changed that the feed has not told of yet: the whole search reads it.
  if (stale.some((p) => heads.get(p.pro.id)?.config_version !== p.pro.config_version)) return null;
  const versions = stale.map((p) => availabilityVersion(heads.get(p.pro.id)!));
  const found = await listTimes(
    db,
    stale.map((p, i) => ({ pro: p.pro, quote: p.quote, version: versions[i]! })),
    o,
  );
  const renewed = new Map(stale.map((p, i) => [p, partOf(p.pro, p.quote, versions[i]!, found[i]!)]));
  const parts = base.parts.map((p) => renewed.get(p) ?? p);
  const listed = new Map(stale.map((p, i) => [renewed.get(p)!, found[i]!]));
  return {
    proIds: base.proIds,
    nextDay: base.nextDay,
    parts,
    ...(await assemble(db, base.search, { parts, listed, nextDay: base.nextDay, previous: base.search }, o)),
  };
}

/** The open times of these cleaners for the job's length, each under the version given (nothing read for none). */
async function listTimes(db: Db, items: Pick<Part, 'pro' | 'quote' | 'version'>[], o: OpenTimesRequest): Promise<ListedTimes[]> {
  if (items.length === 0) return [];
  return openTimesFor(
    db,
    items.map((p) => ({ pro: p.pro, availabilityVersion: p.version, durationMinutes: p.quote.duration_minutes })),
    o,
  );
}

function partOf(pro: ProProfile, quote: Quote, version: string, found: ListedTimes): Part {
  return { pro, quote, version, earliest: found.earliest, validUntil: found.earliest - pro.min_notice_minutes * 60_000, heldUntil: found.heldUntil };
}

/**
 * The answer from its parts: earliest first, then cheapest, at most `limit`. A part shown for
 * the first time gets its offer: its times (`listed`, when just read), and the checks read for
 * all such at once. When the same offers are shown as in `previous`, that answer is the answer.
 */
async function assemble(
  db: Db,
  zipWide: Pick<CleanerSearch, 'serving' | 'notOffering' | 'notOffered'>,
  a: { parts: Part[]; listed: Map<Part, ListedTimes>; nextDay: number; previous?: CleanerSearch },
  o: OpenTimesRequest & { limit: number },
): Promise<Pick<KeptSearch, 'validUntil' | 'heldUntil' | 'search'>> {
  const { parts, listed } = a;
  const ranked = parts.map((p, i) => ({ i, earliest: p.earliest, total: p.quote.total_cents }));
  ranked.sort((x, y) => x.earliest - y.earliest || x.total - y.total || parts[x.i]!.pro.id.localeCompare(parts[y.i]!.pro.id));
  const shown = ranked.slice(0, o.limit).map(({ i }) => parts[i]!);
  const unread = shown.filter((p) => !p.offer);
  if (unread.length > 0) {
    // A part kept from an earlier search and shown now for the first time: its list is still cached under its version.
    const older = unread.filter((p) => !listed.has(p));
    const relisted = await listTimes(db, older, o);
    older.forEach((p, k) => listed.set(p, relisted[k]!));
    const checks = await latestChecks(
      db,
      unread.map((p) => p.pro.id),
    );
    for (const p of unread)
      p.offer = { pro: p.pro, quote: p.quote, times: listed.get(p)!.times.slice(0, CLEANER_OPEN_TIMES_SHOWN), checks: checks.get(p.pro.id) ?? [] };
  }
  const offers = shown.map((p) => p.offer!);
  const previous = a.previous;
  const same = previous && previous.offers.length === offers.length && offers.every((offer, k) => previous.offers[k] === offer);
  return {
    // The ranking holds until some pro's earliest start comes inside its notice.
    validUntil: Math.min(a.nextDay, ...parts.map((p) => p.validUntil)),
    heldUntil: Math.min(...parts.map((p) => p.heldUntil)),
    search: same ? previous : { offers, serving: zipWide.serving, notOffering: zipWide.notOffering, notOffered: zipWide.notOffered },
  };
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
