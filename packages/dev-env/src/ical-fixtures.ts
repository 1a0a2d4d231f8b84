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
export const airbnbBlock = (uid: string, start: string, end: string): FixtureEvent => ({ uid: `${uid}@airbnb.com`, start, end, summary: 'Airbnb (Not available)' });
export const vrboStay = (uid: string, start: string, end: string, guest = 'Sam'): FixtureEvent => ({ uid, start, end, summary: `Reserved - ${guest}` });
export const vrboBlock = (uid: string, start: string, end: string): FixtureEvent => ({ uid, start, end, summary: 'Blocked' });
export const bookingClosed = (uid: string, start: string, end: string): FixtureEvent => ({ uid, start, end, summary: 'CLOSED - Not available' });
