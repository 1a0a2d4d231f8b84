import ICAL from 'ical.js';
import { addDays } from './time';
import { instantsForWallTime, wallClock } from './zone';

/**
 * Reading rental calendars (issue 37; the rules per source are in docs/turnovers.md). A feed's
 * events are stays (a guest is in) or blocks (the owner closed the dates, or another channel's
 * booking mirrored back); only stays get turnover cleans. Pure: the text in, the stays out.
 */
export type FeedSource = 'airbnb' | 'vrbo' | 'booking' | 'ical';

/** A stay as a feed lists it: dates only (check-in day, checkout day), YYYY-MM-DD. */
export interface FeedStay {
  uid: string;
  start: string;
  end: string;
  source: FeedSource;
}

/** A feed whose text is no calendar: it is failing, and nothing is changed from it. */
export class FeedNotACalendar extends Error {}

/** Which platform wrote a feed, from its PRODID (each platform names itself there). */
export function feedSourceOf(prodid: string): FeedSource {
  if (/airbnb/i.test(prodid)) return 'airbnb';
  if (/vrbo|homeaway/i.test(prodid)) return 'vrbo';
  if (/booking\.com/i.test(prodid)) return 'booking';
  return 'ical';
}

const BLOCK_WORDS = /not available|unavailable|blocked|closed|owner|maintenance/i;

/** Whether an event of this source is a guest's stay (see docs/turnovers.md for each rule). */
export function isStay(source: FeedSource, e: { summary: string; status: string; transparent: boolean }): boolean {
  if (e.status.toUpperCase() === 'CANCELLED') return false;
  if (source === 'airbnb') return /^reserved\b/i.test(e.summary.trim());
  if (source === 'vrbo') return /^reserved\b/i.test(e.summary.trim()) || (!BLOCK_WORDS.test(e.summary) && e.summary.trim() !== '');
  // Booking.com writes every closed night, a reservation or not, as "CLOSED - Not available".
  if (source === 'booking') return true;
  return !e.transparent && !BLOCK_WORDS.test(e.summary);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The local day of an event's start or end: a DATE as written; a DATE-TIME in the zone it names (UTC or floating in the property's). */
function dayOf(t: ICAL.Time, zone: string): string {
  if (t.isDate || t.zone === ICAL.Timezone.localTimezone) return `${t.year}-${pad(t.month)}-${pad(t.day)}`;
  const { wall } = wallClock(t.toJSDate().getTime(), zone);
  return wall.toISOString().slice(0, 10);
}

/** The stays one feed lists, in date order; a text that is no iCalendar is refused (FeedNotACalendar). */
export function staysInFeed(text: string, zone: string): { source: FeedSource; stays: FeedStay[]; events: number } {
  let root: ICAL.Component;
  try {
    // ical.js types its parse as any: it is a jCal array, or throws.
    root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch {
    throw new FeedNotACalendar('not iCalendar');
  }
  if (root.name !== 'vcalendar') throw new FeedNotACalendar('not a VCALENDAR');
  const source = feedSourceOf(String(root.getFirstPropertyValue('prodid') ?? ''));
  const vevents = root.getAllSubcomponents('vevent');
  const stays: FeedStay[] = [];
  for (const v of vevents) {
    const stay = stayOf(v, source, zone);
    if (stay) stays.push(stay);
  }
  stays.sort((a, b) => a.start.localeCompare(b.start) || a.end.localeCompare(b.end));
  return { source, stays, events: vevents.length };
}

function stayOf(v: ICAL.Component, source: FeedSource, zone: string): FeedStay | null {
  const start = v.getFirstPropertyValue('dtstart');
  if (!(start instanceof ICAL.Time)) return null;
  const text = (name: string) => String(v.getFirstPropertyValue(name) ?? '');
  if (!isStay(source, { summary: text('summary'), status: text('status'), transparent: text('transp').toUpperCase() === 'TRANSPARENT' })) return null;
  const endValue = v.getFirstPropertyValue('dtend');
  const duration = v.getFirstPropertyValue('duration');
  const startDay = dayOf(start, zone);
  let endDay: string;
  if (endValue instanceof ICAL.Time) endDay = dayOf(endValue, zone);
  else if (duration instanceof ICAL.Duration) {
    const end = start.clone();
    end.addDuration(duration);
    endDay = dayOf(end, zone);
  } else endDay = addDays(startDay, 1);
  if (endDay <= startDay) return null;
  const uid = text('uid') || `${startDay}/${endDay}`;
  return { uid, start: startDay, end: endDay, source };
}

/** The stays of all of a property's feeds: the same dates listed twice (two channels) are one stay, keeping every UID. */
export function mergeFeedStays(feeds: FeedStay[][]): (Omit<FeedStay, 'uid'> & { uids: string[] })[] {
  const byDates = new Map<string, Omit<FeedStay, 'uid'> & { uids: string[] }>();
  for (const stay of feeds.flat()) {
    const key = `${stay.start}/${stay.end}`;
    const seen = byDates.get(key);
    if (seen) {
      if (!seen.uids.includes(stay.uid)) seen.uids.push(stay.uid);
    } else byDates.set(key, { start: stay.start, end: stay.end, source: stay.source, uids: [stay.uid] });
  }
  return [...byDates.values()].sort((a, b) => a.start.localeCompare(b.start) || a.end.localeCompare(b.end));
}

export interface KnownStay {
  id: string;
  uids: string[];
  start: string;
  end: string;
}
export type ReadStay = Omit<FeedStay, 'uid'> & { uids: string[] };

/** What changed between the stays known and the stays read now. */
export interface StayChanges {
  /** Known stays read again at the same dates (their UIDs may have grown). */
  same: { known: KnownStay; read: ReadStay }[];
  /** Known stays read at other dates: their cleans move. */
  moved: { known: KnownStay; read: ReadStay }[];
  added: ReadStay[];
  gone: KnownStay[];
}

const overlaps = (a: { start: string; end: string }, b: { start: string; end: string }) => a.start < b.end && b.start < a.end;

/**
 * Matches the stays read now to those known: first by a UID in common (dates changed = moved),
 * then by the same dates (a channel that re-issues UIDs), then a known stay left over and a
 * read one left over whose dates overlap or share a check-in or checkout day are one stay that
 * moved (Vrbo gives a stay a new UID when its dates change). The rest are new or gone.
 */
export function matchStays(known: KnownStay[], read: ReadStay[]): StayChanges {
  const out: StayChanges = { same: [], moved: [], added: [], gone: [] };
  const left = new Set(known);
  const pending: ReadStay[] = [];
  const take = (k: KnownStay, r: ReadStay) => {
    left.delete(k);
    (k.start === r.start && k.end === r.end ? out.same : out.moved).push({ known: k, read: r });
  };
  for (const r of read) {
    const byUid = [...left].find((k) => k.uids.some((u) => r.uids.includes(u)));
    if (byUid) take(byUid, r);
    else pending.push(r);
  }
  const stillPending: ReadStay[] = [];
  for (const r of pending) {
    const byDates = [...left].find((k) => k.start === r.start && k.end === r.end);
    if (byDates) take(byDates, r);
    else stillPending.push(r);
  }
  for (const r of stillPending) {
    const near = [...left].find((k) => overlaps(k, r) || k.start === r.start || k.end === r.end);
    // Another read stay at the known one's own dates would be the better partner; none is left (they matched above).
    if (near) take(near, r);
    else out.added.push(r);
  }
  out.gone = [...left];
  return out;
}

/** The instant a local day's HH:MM falls on in a zone (the later of two in a fall-back hour, the hour after a spring-forward gap). */
export function instantAtLocal(day: string, hhmm: string, zone: string): Date {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const local = Date.parse(`${day}T00:00:00Z`) + (h * 60 + m) * 60_000;
  const found = instantsForWallTime(local, zone);
  if (found.length) return new Date(found[0]!);
  return new Date(instantsForWallTime(local + 3_600_000, zone)[0] ?? local);
}
