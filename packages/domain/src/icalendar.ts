import { linesOf } from './plain-text';
import { zoneInfoAt, wallClock } from './zone';
import { DAY_MS } from './time';

/**
 * iCalendar (RFC 5545) text: the business's jobs as a feed, a customer's booking as a file.
 * Times are written in the business's zone with a VTIMEZONE built from the same zone data
 * the schedule uses, one observance per transition in the span of the events, so a job on
 * a daylight-saving day lands at its local time in every calendar.
 */

const HOUR = 3_600_000;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * A TEXT value (RFC 5545 §3.3.11): backslash, semicolon and comma escaped, every line break
 * (CRLF, a bare CR or LF, NEL, U+2028, U+2029) written as `\n`, and every other character
 * no text may hold dropped (linesOf), so no stored value, however old, starts a line or a
 * property of its own or hides in the one it is in.
 */
export const icalText = (s: string) =>
  linesOf(s)
    .map((line) => line.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,'))
    .join('\\n');

/** Lines longer than 75 octets folded with CRLF and a space, never inside a UTF-8 character (§3.1). */
function fold(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch);
    if (octets + size > (out.length ? 74 : 75)) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

/** `20261124T140000Z` */
export const utcStamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** `20261124T090000`: the wall-clock time in the zone, for DTSTART;TZID=… */
function localStamp(d: Date, zone: string): string {
  const { wall } = wallClock(d.getTime(), zone);
  return `${pad(wall.getUTCFullYear(), 4)}${pad(wall.getUTCMonth() + 1)}${pad(wall.getUTCDate())}T${pad(wall.getUTCHours())}${pad(wall.getUTCMinutes())}${pad(wall.getUTCSeconds())}`;
}

const offsetText = (minutes: number) => `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}${pad(Math.abs(minutes) % 60)}`;

/** The instants in [from, to) where the zone's offset changes, found day by day then to the minute. */
function transitions(zone: string, from: number, to: number): number[] {
  const found: number[] = [];
  for (let t = from; t < to; t += DAY_MS) {
    if (zoneInfoAt(t, zone).offsetMinutes === zoneInfoAt(t + DAY_MS, zone).offsetMinutes) continue;
    // Offsets change on 15-minute boundaries: search those within the day.
    let lo = Math.floor(t / (15 * 60_000));
    let hi = Math.floor((t + DAY_MS) / (15 * 60_000));
    const before = zoneInfoAt(t, zone).offsetMinutes;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (zoneInfoAt(mid * 15 * 60_000, zone).offsetMinutes === before) lo = mid;
      else hi = mid;
    }
    found.push(hi * 15 * 60_000);
  }
  return found;
}

/**
 * A VTIMEZONE for `zone` covering [from, to): the offset in force at `from`, then one
 * STANDARD or DAYLIGHT observance per transition, each with its own DTSTART (no RRULE), as
 * RFC 5545 allows. A zone without transitions gets one observance.
 */
export function vtimezone(zone: string, from: Date, to: Date): string[] {
  const start = from.getTime() - DAY_MS;
  const changes = transitions(zone, start, to.getTime() + DAY_MS);
  const offsets = [zoneInfoAt(start, zone).offsetMinutes, ...changes.map((t) => zoneInfoAt(t, zone).offsetMinutes)];
  // Daylight time is the larger offset of a neighbouring pair.
  const isDaylight = (i: number) => offsets[i]! > Math.min(offsets[i - 1] ?? offsets[i]!, offsets[i + 1] ?? offsets[i]!);
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zone}`];
  // The first observance begins on the hour before the span; each later one at its transition.
  [start - (start % HOUR), ...changes].forEach((at, i) => {
    const before = offsets[Math.max(0, i - 1)]!;
    // An observance's DTSTART is the local time in the offset in force before it (§3.6.5).
    const wall = new Date(at + before * 60_000);
    const kind = isDaylight(i) ? 'DAYLIGHT' : 'STANDARD';
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${pad(wall.getUTCFullYear(), 4)}${pad(wall.getUTCMonth() + 1)}${pad(wall.getUTCDate())}T${pad(wall.getUTCHours())}${pad(wall.getUTCMinutes())}00`,
      `TZOFFSETFROM:${offsetText(before)}`,
      `TZOFFSETTO:${offsetText(offsets[i]!)}`,
      `TZNAME:${icalText(zoneInfoAt(at, zone).abbreviation)}`,
      `END:${kind}`,
    );
  });
  lines.push('END:VTIMEZONE');
  return lines;
}

export interface CalendarEvent {
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  location?: string;
  description?: string;
  cancelled: boolean;
  /** Bumped when the event changes, so calendars replace their copy. */
  sequence: number;
  updatedAt: Date;
  /** A turnover clean's property (list_properties' property_id), written as X-FRONTDESK-PROPERTY-ID. */
  propertyId?: string | null;
}

/** A VCALENDAR of events in one zone; CRLF line ends, folded lines. */
export function icalendar(opts: { name: string; zone: string; events: CalendarEvent[]; now: Date; method?: 'PUBLISH' }): string {
  const times = opts.events.flatMap((e) => [e.start.getTime(), e.end.getTime()]);
  const from = new Date(Math.min(opts.now.getTime(), ...times));
  const to = new Date(Math.max(opts.now.getTime(), ...times));
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Front Desk//Cleaning schedule//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${opts.method ?? 'PUBLISH'}`,
    `X-WR-CALNAME:${icalText(opts.name)}`,
    `X-WR-TIMEZONE:${opts.zone}`,
    ...vtimezone(opts.zone, from, to),
  ];
  for (const e of opts.events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${e.uid}`,
      `DTSTAMP:${utcStamp(e.updatedAt)}`,
      `LAST-MODIFIED:${utcStamp(e.updatedAt)}`,
      `SEQUENCE:${e.sequence}`,
      `DTSTART;TZID=${opts.zone}:${localStamp(e.start, opts.zone)}`,
      `DTEND;TZID=${opts.zone}:${localStamp(e.end, opts.zone)}`,
      `SUMMARY:${icalText(e.summary)}`,
      ...(e.location ? [`LOCATION:${icalText(e.location)}`] : []),
      ...(e.description ? [`DESCRIPTION:${icalText(e.description)}`] : []),
      `STATUS:${e.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
      ...(e.propertyId ? [`X-FRONTDESK-PROPERTY-ID:${icalText(e.propertyId)}`] : []),
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
