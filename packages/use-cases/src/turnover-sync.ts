import {
  EMPTY_READS_TO_TRUST,
  FEED_READ_MINUTES,
  FeedNotACalendar,
  TURNOVER_HORIZON_DAYS,
  addDays,
  instantAtLocal,
  feedFailingMail,
  feedFailingMessage,
  feedNotCalendar,
  matchStays,
  mergeFeedStays,
  noProperty,
  ownerAddress,
  staysInFeed,
  type FeedStay,
  type ReadStay,
} from '@frontdesk/domain';
import {
  appendEvent,
  enqueueMail,
  feedsOf,
  insertStays,
  liveStays,
  lockBookings,
  lockFeeds,
  claimDueFeeds,
  lockPro,
  lockProperty,
  propertiesOf,
  recordFeedRead,
  touchStays,
  updateStay,
  type Db,
  type ListedStay,
  type Pro,
  type Property,
  type PropertyFeed,
  type Stay,
} from '@frontdesk/db';
import { cancelTurnover, planStay, todayOf, windowOf, type Plan } from './turnover-plan';
import { placeTurnoverFee, type HostMail } from './host-mail';

/** What one conditional read of a calendar address gave. */
export type FeedAnswer =
  { kind: 'unchanged' } | { kind: 'read'; text: string; etag: string | null; lastModified: string | null } | { kind: 'failed'; reason: string };

/** Reads a calendar address under the outbound guard (the workers package's createFeedReader). */
export interface FeedReader {
  read(url: string, since: { etag: string | null; lastModified: string | null }): Promise<FeedAnswer>;
}

/** A feed's read, judged: what it lists now (a failing or untrusted one: what it last listed) and what to record. */
interface Judged {
  feed: PropertyFeed;
  listed: ListedStay[];
  record: Parameters<typeof recordFeedRead>[2];
  newlyFailing: string | null;
}

/**
 * One feed's answer judged. A failure or garbage keeps what the feed last listed (so it cancels
 * nothing) and is told once; a 304 keeps it too; an empty read stands only once
 * EMPTY_READS_TO_TRUST successful reads in a row agree.
 */
export function judgeRead(feed: PropertyFeed, answer: FeedAnswer, o: { zone: string; now: Date }): Judged {
  // Each next read lands up to a minute and a half either side of the quarter hour, so feeds read together drift apart.
  const next = new Date(o.now.getTime() + FEED_READ_MINUTES * 60_000 + Math.round((Math.random() - 0.5) * 180_000));
  const base = { at: o.now, next };
  let parsed: FeedStay[] | null = null;
  let failure = answer.kind === 'failed' ? answer.reason : null;
  if (answer.kind === 'read') {
    try {
      parsed = staysInFeed(answer.text, o.zone).stays;
    } catch (err) {
      if (!(err instanceof FeedNotACalendar)) throw err;
      failure = feedNotCalendar();
    }
  }
  if (failure !== null) {
    const record = { ...base, outcome: 'failing' as const, reason: failure, failing_told: true };
    return { feed, listed: feed.listed, record, newlyFailing: feed.failing_told ? null : failure };
  }
  if (answer.kind !== 'read' || parsed === null) {
    return { feed, listed: feed.listed, record: { ...base, outcome: 'unchanged', reason: null, failing_told: false }, newlyFailing: null };
  }
  const emptyReads = parsed.length === 0 ? feed.empty_reads + 1 : 0;
  const trusted = parsed.length > 0 || emptyReads >= EMPTY_READS_TO_TRUST || feed.listed.length === 0;
  const listed = trusted ? parsed : feed.listed;
  const record = {
    ...base,
    outcome: 'ok' as const,
    reason: null,
    failing_told: false,
    etag: answer.etag,
    last_modified: answer.lastModified,
    stays_listed: parsed.length,
    empty_reads: emptyReads,
    listed,
  };
  return { feed, listed, record, newlyFailing: null };
}

/** Reads every feed of a property (outside any transaction: the network is slow) and brings its stays and cleans in line. */
export async function syncProperty(db: Db, o: { pro: Pro; propertyId: string; reader: FeedReader; host?: HostMail; now: Date }): Promise<Property> {
  const [property] = await propertiesOf(db, o.pro.id, o.propertyId);
  if (!property) throw noProperty(o.propertyId);
  const feeds = await feedsOf(db, [property.id]);
  const answers = new Map<string, FeedAnswer>();
  await Promise.all(feeds.map(async (f) => answers.set(f.id, await o.reader.read(f.url, { etag: f.etag, lastModified: f.last_modified }))));
  await applyReads(db, { proId: o.pro.id, propertyId: property.id, answers, host: o.host, now: o.now });
  return property;
}

/** The reads recorded and the stays reconciled, in one transaction under the business's row, then the property's. */
export async function applyReads(
  db: Db,
  o: { proId: string; propertyId: string; answers: Map<string, FeedAnswer>; host?: HostMail; now: Date },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const pro = await lockPro(trx, o.proId);
    const property = pro && (await lockProperty(trx, o.proId, o.propertyId));
    if (!pro || !property) return; // removed meanwhile
    const feeds = await lockFeeds(trx, property.id);
    const plan: Plan = { pro, property, now: o.now, host: o.host };
    const judged = feeds.map((f) => {
      const answer = o.answers.get(f.id);
      return answer ? judgeRead(f, answer, { zone: pro.timezone, now: o.now }) : { feed: f, listed: f.listed, record: null, newlyFailing: null };
    });
    for (const j of judged) {
      if (j.record) await recordFeedRead(trx, j.feed.id, j.record);
      if (j.newlyFailing) await feedFailing(trx, plan, j.feed, j.newlyFailing);
    }
    // A calendar that has never read well (new, or put in place of another) lists nothing yet:
    // until it does, no stay counts as gone, so a failing new address cancels nothing.
    const unread = judged.some((j) => (j.record && 'stays_listed' in j.record ? j.record.stays_listed : j.feed.stays_listed) === null);
    await reconcile(trx, plan, mergeFeedStays(judged.map((j) => j.listed as FeedStay[])), { keepGone: unread });
  });
}

/** A feed that has just started failing: the event, and the owner's mail through the outbox (sent only if the read commits). */
async function feedFailing(trx: Db, p: Plan, feed: PropertyFeed, reason: string) {
  await appendEvent(trx, p.pro.id, {
    kind: 'property.feed_failing',
    payload: { property_id: p.property.id, url: feed.url, reason, message: feedFailingMessage(p.property.name, reason) },
    at: p.now,
  });
  const to = ownerAddress(p.pro);
  if (to) await enqueueMail(trx, { to, ...feedFailingMail({ proName: p.pro.name, property: p.property.name, url: feed.url, reason }), now: p.now });
}

/**
 * Stays matched to what the feeds list now: moved, new and gone ones written, then every
 * upcoming stay's clean planned. What a read leaves as it was costs one statement (the stays
 * seen again) and one more to lock the cleans, whatever the number of stays.
 */
async function reconcile(trx: Db, p: Plan, read: ReadStay[], o: { keepGone: boolean }): Promise<void> {
  const today = todayOf(p);
  const until = addDays(today, TURNOVER_HORIZON_DAYS);
  const inView = (s: { start: string; end: string }) => s.end >= today && s.start <= until;
  const live = await liveStays(trx, p.property.id);
  const known = live.filter((s) => inView({ start: s.start_date, end: s.end_date }));
  const matched = matchStays(
    known.map((s) => ({ id: s.id, uids: s.uids, start: s.start_date, end: s.end_date })),
    read.filter(inView),
  );
  const changes = o.keepGone ? { ...matched, gone: [] } : matched;
  const asBefore = changes.same.filter(({ known: k, read: r }) => r.uids.every((u) => k.uids.includes(u)));
  const rewritten = [...changes.same.filter((c) => !asBefore.includes(c)), ...changes.moved];
  await touchStays(
    trx,
    asBefore.map((c) => c.known.id),
    p.now,
  );
  // Moved stays step out of the one-live-stay-per-dates rule first, so two that swap dates never collide.
  for (const { known: k } of changes.moved) await updateStay(trx, k.id, { gone_at: p.now });
  for (const { known: k, read: r } of rewritten) {
    await updateStay(trx, k.id, { uids: [...new Set([...k.uids, ...r.uids])], start_date: r.start, end_date: r.end, last_seen_at: p.now, gone_at: null });
  }
  for (const gone of changes.gone)
    await stayGone(
      trx,
      p,
      known.find((s) => s.id === gone.id)!,
    );
  await insertStays(trx, p.property.id, changes.added, p.now);
  const changed = rewritten.length + changes.gone.length + changes.added.length > 0;
  const stays: Stay[] = (changed ? await liveStays(trx, p.property.id) : live).filter((s) => s.end_date >= today);
  const bookings = new Map(
    (
      await lockBookings(
        trx,
        stays.flatMap((s) => (s.booking_id ? [s.booking_id] : [])),
        p.pro.id,
      )
    ).map((b) => [b.id, b]),
  );
  // A stay's window is the calendars' doing when its checkout or the next check-in changed in this read; else a clean
  // that no longer fits moved for the owner's own change (the property's times or crew), which the host is not mailed of.
  const before = windowEnds(live.filter((s) => s.end_date >= today));
  const after = windowEnds(stays);
  // The crews' days over every window planned here (the last one's search runs a few days past its checkout), read once if needed.
  const last = stays.at(-1);
  if (last) p.days = { from: new Date(p.now.getTime() - 2 * DAY_MS), to: instantAtLocal(addDays(last.end_date, 6), '00:00', p.pro.timezone) };
  for (let i = 0; i < stays.length; i++) {
    const stay = stays[i]!;
    const calendarChanged = before.get(stay.id) !== after.get(stay.id);
    const locked = stay.booking_id ? (bookings.get(stay.booking_id) ?? null) : null;
    await planStay(trx, p, { stay, window: windowOf(p, stay, stays[i + 1]), locked, calendarChanged });
  }
  p.days = undefined;
  await placeTurnoverFee(trx, p.property, p.now);
}

const DAY_MS = 86_400_000;

/** Each stay's checkout and the next stay's check-in (the days its window runs between), given the stays in date order. */
const windowEnds = (stays: Pick<Stay, 'id' | 'start_date' | 'end_date'>[]) =>
  new Map(stays.map((s, i) => [s.id, `${s.end_date}/${stays[i + 1]?.start_date ?? ''}`]));

async function stayGone(trx: Db, p: Plan, stay: Stay): Promise<void> {
  await updateStay(trx, stay.id, { gone_at: p.now, proposed_start: null, proposed_crew_id: null });
  if (stay.booking_id) await cancelTurnover(trx, { ...p, stayId: stay.id, bookingId: stay.booking_id });
}

/** How many businesses' reads are applied at once by one worker. */
const APPLY_LANES = 4;

/**
 * The worker's tick: leases the feeds that are due (SKIP LOCKED, a lease each, so replicas
 * never read one feed at once), reads them all at once, and applies each property's reads in
 * one transaction: a few businesses side by side, one business's properties one after another (each
 * holds the business's row while it plans, so side by side they would only queue on it). Feeds
 * of one property not due now stand by what they last listed. A property whose apply fails
 * keeps its lease until it runs out and is read again then; the others still apply.
 */
export async function syncDueFeeds(
  db: Db,
  o: { reader: FeedReader; holder: string; now: Date; limit: number; leaseSeconds: number; host?: HostMail },
): Promise<number> {
  const claimed = await claimDueFeeds(db, { holder: o.holder, now: o.now, until: new Date(o.now.getTime() + o.leaseSeconds * 1000), limit: o.limit });
  const answers = new Map<string, FeedAnswer>();
  const reading = Promise.all(claimed.map(async (f) => answers.set(f.id, await o.reader.read(f.url, { etag: f.etag, lastModified: f.last_modified }))));
  const byPro = new Map<string, Map<string, PropertyFeed[]>>();
  for (const f of claimed) {
    const properties = byPro.get(f.pro_id) ?? byPro.set(f.pro_id, new Map()).get(f.pro_id)!;
    properties.set(f.property_id, [...(properties.get(f.property_id) ?? []), f]);
  }
  await reading;
  const failed: unknown[] = [];
  const queue = [...byPro];
  // A few businesses at a time: each holds a connection for its whole plan, and a batch can span
  // more businesses than the pool has connections (the rest would time out waiting for one).
  const lane = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [proId, properties] = next;
      for (const [propertyId, feeds] of properties) {
        const own = new Map(feeds.map((f) => [f.id, answers.get(f.id)!]));
        await applyReads(db, { proId, propertyId, answers: own, host: o.host, now: o.now }).catch((err: unknown) => failed.push(err));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(APPLY_LANES, queue.length) }, lane));
  if (failed.length) throw failed.length === 1 ? failed[0] : new AggregateError(failed, `${failed.length} properties could not be applied`);
  return claimed.length;
}
