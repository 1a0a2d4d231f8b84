import { FeedNotACalendar, instantAtLocal, matchStays, mergeFeedStays, staysInFeed } from '../src/turnovers';

const feed = (prodid: string, ...events: string[]) =>
  ['BEGIN:VCALENDAR', `PRODID:${prodid}`, 'VERSION:2.0', ...events.flatMap((e) => ['BEGIN:VEVENT', ...e.split('\n'), 'END:VEVENT']), 'END:VCALENDAR'].join(
    '\r\n',
  );
const event = (uid: string, start: string, end: string, summary: string, extra = '') =>
  [`UID:${uid}`, `DTSTART;VALUE=DATE:${start}`, `DTEND;VALUE=DATE:${end}`, `SUMMARY:${summary}`, ...(extra ? [extra] : [])].join('\n');
const NY = 'America/New_York';

describe('staysInFeed', () => {
  it('takes Airbnb reservations as stays and its "Not available" entries as blocks, dates only', () => {
    const text = feed(
      '-//Airbnb Inc//Hosting Calendar 1.0//EN',
      event('a1@airbnb.com', '20261203', '20261206', 'Reserved', 'DESCRIPTION:Reservation URL: https://www.airbnb.com/hosting/reservations/details/HM1'),
      event('a2@airbnb.com', '20261206', '20261230', 'Airbnb (Not available)'),
    );
    expect(staysInFeed(text, NY)).toEqual({
      source: 'airbnb',
      events: 2,
      stays: [{ uid: 'a1@airbnb.com', start: '2026-12-03', end: '2026-12-06', source: 'airbnb' }],
    });
  });

  it('takes Vrbo "Reserved - guest" as a stay and "Blocked" as a block, and skips a cancelled event anywhere', () => {
    const text = feed(
      '-//HomeAway.com, Inc.//EN',
      event('v1', '20261210', '20261212', 'Reserved - Sam'),
      event('v2', '20261214', '20261216', 'Blocked'),
      event('v3', '20261218', '20261220', 'Reserved - Kim', 'STATUS:CANCELLED'),
    );
    expect(staysInFeed(text, NY).stays.map((s) => s.uid)).toEqual(['v1']);
  });

  it('takes every Booking.com closed range as a stay, and a plain calendar’s busy events but not its blocks or free time', () => {
    const booking = feed('-//admin.booking.com//NONSGML Booking.com//EN', event('b1', '20261201', '20261204', 'CLOSED - Not available'));
    expect(staysInFeed(booking, NY).stays).toEqual([{ uid: 'b1', start: '2026-12-01', end: '2026-12-04', source: 'booking' }]);
    const other = feed(
      '-//Example PMS//EN',
      event('o1', '20261201', '20261204', 'Guest: Lee'),
      event('o2', '20261205', '20261206', 'Owner block'),
      event('o3', '20261207', '20261208', 'Guest: Ana', 'TRANSP:TRANSPARENT'),
    );
    expect(staysInFeed(other, NY).stays.map((s) => s.uid)).toEqual(['o1']);
  });

  it('reads a DATE-TIME in UTC as the local day in the property’s zone, and a stay without an end as one night', () => {
    const text = feed(
      '-//Example PMS//EN',
      ['UID:t1', 'DTSTART:20261210T030000Z', 'DTEND:20261212T030000Z', 'SUMMARY:Stay'].join('\n'),
      ['UID:t2', 'DTSTART;VALUE=DATE:20261220', 'SUMMARY:Stay'].join('\n'),
    );
    expect(staysInFeed(text, NY).stays.map((s) => [s.uid, s.start, s.end])).toEqual([
      ['t1', '2026-12-09', '2026-12-11'],
      ['t2', '2026-12-20', '2026-12-21'],
    ]);
  });

  it('refuses text that is no calendar, so nothing is changed from it', () => {
    expect(() => staysInFeed('<html>Sign in</html>', NY)).toThrow(FeedNotACalendar);
    expect(() => staysInFeed('', NY)).toThrow(FeedNotACalendar);
    expect(() => staysInFeed('BEGIN:VCARD\r\nEND:VCARD', NY)).toThrow(FeedNotACalendar);
  });
});

describe('mergeFeedStays and matchStays', () => {
  const read = (start: string, end: string, ...uids: string[]) => ({ start, end, source: 'vrbo' as const, uids });

  it('makes the same dates in two feeds one stay with both UIDs', () => {
    const merged = mergeFeedStays([
      [{ uid: 'a@airbnb.com', start: '2026-12-03', end: '2026-12-06', source: 'airbnb' }],
      [{ uid: 'v9', start: '2026-12-03', end: '2026-12-06', source: 'vrbo' }],
    ]);
    expect(merged).toEqual([{ start: '2026-12-03', end: '2026-12-06', source: 'airbnb', uids: ['a@airbnb.com', 'v9'] }]);
  });

  it('finds a stay by UID when its dates move, by dates when its UID changes, and a Vrbo stay whose UID changed with its dates as moved', () => {
    const known = [
      { id: 's1', uids: ['u1'], start: '2026-12-01', end: '2026-12-03' },
      { id: 's2', uids: ['u2'], start: '2026-12-05', end: '2026-12-08' },
      { id: 's3', uids: ['u3'], start: '2026-12-10', end: '2026-12-12' },
      { id: 's4', uids: ['u4'], start: '2026-12-20', end: '2026-12-22' },
    ];
    const changes = matchStays(known, [
      read('2026-12-01', '2026-12-04', 'u1'),
      read('2026-12-05', '2026-12-08', 'new2'),
      read('2026-12-10', '2026-12-13', 'new3'),
      read('2026-12-28', '2026-12-30', 'u5'),
    ]);
    expect(changes.same.map((c) => c.known.id)).toEqual(['s2']);
    expect(changes.moved.map((c) => [c.known.id, c.read.end])).toEqual([
      ['s1', '2026-12-04'],
      ['s3', '2026-12-13'],
    ]);
    expect(changes.added.map((r) => r.uids)).toEqual([['u5']]);
    expect(changes.gone.map((k) => k.id)).toEqual(['s4']);
  });
});

describe('instantAtLocal', () => {
  it('puts a checkout time on the local day in the zone, across a daylight-saving change', () => {
    expect(instantAtLocal('2026-12-03', '11:00', NY).toISOString()).toBe('2026-12-03T16:00:00.000Z');
    expect(instantAtLocal('2026-07-03', '11:00', NY).toISOString()).toBe('2026-07-03T15:00:00.000Z');
    expect(instantAtLocal('2026-03-08', '02:30', NY).toISOString()).toBe('2026-03-08T07:30:00.000Z');
  });
});
