import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
/**
 * iCalendar feeds as the platforms export them (issue 37), written from their documented
 * shapes: Airbnb (PRODID "-//Airbnb Inc//Hosting Calendar…", "Reserved" stays with a
 * reservation link, "Airbnb (Not available)" blocks, DATE-only values), Vrbo (PRODID
 * "-//HomeAway.com, Inc.//…", "Reserved - <guest>" and "Blocked", a UID that changes when a
 * stay's dates do), Booking.com (every closed night "CLOSED - Not available").
 */
export interface FixtureEvent {
  uid: string;
  start: string;
  end: string;
  summary: string;
  description?: string;
  status?: string;
}

const compact = (day: string) => day.replaceAll('-', '');

export function calendar(prodid: string, events: FixtureEvent[]): string {
  const lines = ['BEGIN:VCALENDAR', `PRODID:${prodid}`, 'CALSCALE:GREGORIAN', 'VERSION:2.0'];
  for (const e of events) {
    lines.push(
      'BEGIN:VEVENT',
      'DTSTAMP:20261128T010000Z',
      `DTSTART;VALUE=DATE:${compact(e.start)}`,
      `DTEND;VALUE=DATE:${compact(e.end)}`,
      `SUMMARY:${e.summary}`,
      `UID:${e.uid}`,
      ...(e.description ? [`DESCRIPTION:${e.description}`] : []),
      ...(e.status ? [`STATUS:${e.status}`] : []),
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

export const AIRBNB_PRODID = '-//Airbnb Inc//Hosting Calendar 1.0//EN';
export const VRBO_PRODID = '-//HomeAway.com, Inc.//EN';
export const BOOKING_PRODID = '-//admin.booking.com//NONSGML Booking.com calendar export//EN';

export const airbnbStay = (uid: string, start: string, end: string): FixtureEvent => ({
  uid: `${uid}@airbnb.com`,
  start,
  end,
  summary: 'Reserved',
  description: 'Reservation URL: https://www.airbnb.com/hosting/reservations/details/HMABCDEF\\nPhone Number (Last 4 Digits): 1234',
});
export const airbnbBlock = (uid: string, start: string, end: string): FixtureEvent => ({
  uid: `${uid}@airbnb.com`,
  start,
  end,
  summary: 'Airbnb (Not available)',
});
export const vrboStay = (uid: string, start: string, end: string, guest = 'Sam'): FixtureEvent => ({ uid, start, end, summary: `Reserved - ${guest}` });
export const vrboBlock = (uid: string, start: string, end: string): FixtureEvent => ({ uid, start, end, summary: 'Blocked' });
export const bookingClosed = (uid: string, start: string, end: string): FixtureEvent => ({ uid, start, end, summary: 'CLOSED - Not available' });

/** What the calendar server answers on one path: a calendar (with an ETag unless told not to), a status, or a redirect. */
export interface FeedScript {
  body?: string;
  status?: number;
  location?: string;
  /** Answer 304 to a request that names this ETag (default: one made from the body). */
  etag?: string | null;
}

/**
 * A calendar server on 127.0.0.1, started by the test: each path answers what the test set last,
 * honours If-None-Match with 304, and counts the requests it got.
 */
export class CalendarServer {
  private readonly scripts = new Map<string, FeedScript>();
  readonly hits = new Map<string, number>();
  private server!: Server;
  base = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const path = req.url ?? '/';
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      const s = this.scripts.get(path) ?? { status: 404, body: 'not found' };
      const etag = s.etag === undefined && s.body !== undefined ? `"${createHash('sha1').update(s.body).digest('hex')}"` : (s.etag ?? null);
      if (s.location) {
        res.writeHead(s.status ?? 302, { location: s.location }).end();
        return;
      }
      if (etag && req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag }).end();
        return;
      }
      res.writeHead(s.status ?? 200, { 'content-type': 'text/calendar; charset=utf-8', ...(etag ? { etag } : {}) }).end(s.body ?? '');
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Sets what `path` answers from now on, and gives its address. */
  serve(path: string, script: FeedScript): string {
    this.scripts.set(path, script);
    return `${this.base}${path}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
