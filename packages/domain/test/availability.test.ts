import {
  DEFAULT_SCHEDULE_SETTINGS,
  DEFAULT_WEEKLY_HOURS,
  formatLocalIso,
  openTimes,
  parseStart,
  presentOpenTime,
  whyNotOpen,
  workingTimeSpan,
  type OpenTimesQuery,
  type ScheduleRules,
} from '../src';

const NY = 'America/New_York';
const rules = (over: Partial<ScheduleRules> = {}): ScheduleRules => ({
  timezone: NY,
  weekly_hours: DEFAULT_WEEKLY_HOURS,
  ...DEFAULT_SCHEDULE_SETTINGS,
  ...over,
});
// Monday 2026-11-23 08:00 in New York is 13:00Z.
const query = (over: Partial<OpenTimesQuery> = {}): OpenTimesQuery => ({
  rules: rules(),
  durationMinutes: 120,
  now: new Date('2026-11-20T12:00:00Z'),
  from: '2026-11-23',
  days: 1,
  busy: [],
  timeOff: [],
  ...over,
});
const starts = (q: OpenTimesQuery) => openTimes(q).map((o) => formatLocalIso(o.start, q.rules.timezone));

describe('openTimes', () => {
  it('lists every step of the day where the whole job fits the working hours', () => {
    const s = starts(query());
    expect(s[0]).toBe('2026-11-23T08:00:00-05:00');
    expect(s.at(-1)).toBe('2026-11-23T15:00:00-05:00'); // 15:00 + 2 h = 17:00 closing
    expect(s).toHaveLength(15);
  });

  it('keeps the travel buffer on both sides of a booking', () => {
    const start = new Date('2026-11-23T16:00:00Z'); // 11:00 local, 2 h job, 30 min buffer
    const s = starts(query({ busy: [{ start, blockedUntil: new Date('2026-11-23T18:30:00Z') }] }));
    // A new 2 h job needs to end 30 min before 11:00 and may start 30 min after 13:00.
    expect(s).toContain('2026-11-23T08:30:00-05:00');
    expect(s).not.toContain('2026-11-23T09:00:00-05:00');
    expect(s).not.toContain('2026-11-23T13:00:00-05:00');
    expect(s).toContain('2026-11-23T13:30:00-05:00');
  });

  it('honours start_after, finish_by, time off and the minimum notice', () => {
    expect(starts(query({ startAfter: '11:00', finishBy: '14:00' }))).toEqual([
      '2026-11-23T11:00:00-05:00',
      '2026-11-23T11:30:00-05:00',
      '2026-11-23T12:00:00-05:00',
    ]);
    const off = { start: new Date('2026-11-23T13:00:00Z'), end: new Date('2026-11-23T20:00:00Z') };
    expect(starts(query({ timeOff: [off] }))).toEqual(['2026-11-23T15:00:00-05:00']);
    // Now is 07:00 local on the day; 12 h notice leaves nothing that day.
    expect(starts(query({ now: new Date('2026-11-23T12:00:00Z') }))).toEqual([]);
  });

  it('stops at a limit with the earliest starts, even when a day lists its windows out of order', () => {
    const split = rules({
      weekly_hours: {
        '1': [
          { start: '13:00', end: '17:00' },
          { start: '08:00', end: '10:00' },
        ],
      },
    });
    const all = starts(query({ rules: split }));
    expect(starts(query({ rules: split, limit: 2 }))).toEqual(all.slice(0, 2));
    expect(all[0]).toBe('2026-11-23T08:00:00-05:00');
    expect(starts(query({ days: 7, limit: 1 }))).toEqual(['2026-11-23T08:00:00-05:00']);
  });

  it('lists nothing on a day without working hours', () => {
    expect(starts(query({ from: '2026-11-22' }))).toEqual([]); // Sunday
  });

  it('lists the right days, in order, from the date given', () => {
    const s = starts(query({ days: 7 }));
    expect(new Set(s.map((x) => x.slice(0, 10)))).toEqual(new Set(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28']));
    expect([...s].sort()).toEqual(s);
  });
});

describe('openTimes across DST in America/New_York', () => {
  const night = rules({ weekly_hours: { '7': [{ start: '00:00', end: '05:00' }] }, min_notice_minutes: 0 });

  it('skips the hour that does not exist when clocks spring forward', () => {
    // Sunday 2027-03-14: 02:00 EST becomes 03:00 EDT. The window 00:00-05:00 is 4 real hours.
    const s = starts(query({ rules: night, from: '2027-03-14', durationMinutes: 60, now: new Date('2027-03-01T00:00:00Z') }));
    expect(s).toEqual([
      '2027-03-14T00:00:00-05:00',
      '2027-03-14T00:30:00-05:00',
      '2027-03-14T01:00:00-05:00',
      '2027-03-14T01:30:00-05:00',
      '2027-03-14T03:00:00-04:00',
      '2027-03-14T03:30:00-04:00',
      '2027-03-14T04:00:00-04:00',
    ]);
    expect(s.some((x) => x.includes('T02:'))).toBe(false);
  });

  it('offers both 1 AMs when clocks fall back, each labelled with its zone', () => {
    // Sunday 2026-11-01: 02:00 EDT becomes 01:00 EST. The window 00:00-05:00 is 6 real hours.
    const q = query({ rules: night, from: '2026-11-01', durationMinutes: 60, now: new Date('2026-10-01T00:00:00Z') });
    const times = openTimes(q).map((o) => presentOpenTime(o, NY));
    const ones = times.filter((t) => t.start.includes('T01:00'));
    expect(ones.map((t) => t.start)).toEqual(['2026-11-01T01:00:00-04:00', '2026-11-01T01:00:00-05:00']);
    expect(ones.map((t) => t.label)).toEqual(['Sun, Nov 1, 1:00 AM EDT', 'Sun, Nov 1, 1:00 AM EST']);
    expect(times).toHaveLength(11);
    // Every job is one real hour long, even the one that crosses the change.
    for (const o of openTimes(q)) expect(o.end.getTime() - o.start.getTime()).toBe(3_600_000);
  });
});

describe('whyNotOpen', () => {
  const base = query();
  it('accepts a listed start and explains each refusal', () => {
    expect(whyNotOpen(base, new Date('2026-11-23T14:00:00Z'))).toBeNull();
    expect(whyNotOpen(base, new Date('2026-11-19T14:00:00Z'))?.reason).toBe('past');
    expect(whyNotOpen(base, new Date('2026-11-20T20:00:00Z'))?.reason).toBe('too_soon');
    expect(whyNotOpen(base, new Date('2026-11-23T21:00:00Z'))?.message).toMatch(/outside working hours.*08:00-17:00/);
    expect(whyNotOpen(base, new Date('2026-11-23T14:10:00Z'))?.reason).toBe('off_step');
    const busy = [{ start: new Date('2026-11-23T14:00:00Z'), blockedUntil: new Date('2026-11-23T16:30:00Z') }];
    expect(whyNotOpen({ ...base, busy }, new Date('2026-11-23T15:00:00Z'))).toMatchObject({ reason: 'taken' });
  });
});

describe('parseStart', () => {
  it('reads an offset, and a time without one as local time', () => {
    expect(parseStart('2026-11-24T09:00:00-05:00', NY).toISOString()).toBe('2026-11-24T14:00:00.000Z');
    expect(parseStart('2026-11-24T14:00:00Z', NY).toISOString()).toBe('2026-11-24T14:00:00.000Z');
    expect(parseStart('2026-11-24T09:00', NY).toISOString()).toBe('2026-11-24T14:00:00.000Z');
    expect(parseStart('2026-07-24T09:00', NY).toISOString()).toBe('2026-07-24T13:00:00.000Z');
  });

  it('refuses a local time inside the spring-forward gap and takes the first of two in the fall-back overlap', () => {
    expect(() => parseStart('2027-03-14T02:30', NY)).toThrow(/does not exist in America\/New_York/);
    expect(parseStart('2026-11-01T01:30', NY).toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });

  it('refuses what is not a date-time', () => {
    expect(() => parseStart('tomorrow 9am', NY)).toThrow(/ISO 8601/);
    expect(() => parseStart('2026-02-30T09:00:00Z', NY)).toThrow(/not a real date/);
  });
});

describe('workingTimeSpan', () => {
  it('says whether it is working time, and the instants between which that answer holds', () => {
    // Monday 2026-11-23 in New York (UTC-5): 08:00-12:00 and 13:00-17:00.
    const hours = rules({
      weekly_hours: {
        '1': [
          { start: '08:00', end: '12:00' },
          { start: '13:00', end: '17:00' },
        ],
      },
    });
    const at = (iso: string) => workingTimeSpan(hours, new Date(iso));
    const ms = Date.parse;
    expect(at('2026-11-23T12:00:00Z')).toEqual({ working: false, from: ms('2026-11-23T05:00:00Z'), until: ms('2026-11-23T13:00:00Z') });
    expect(at('2026-11-23T13:00:00Z')).toEqual({ working: true, from: ms('2026-11-23T13:00:00Z'), until: ms('2026-11-23T17:00:00Z') });
    expect(at('2026-11-23T17:30:00Z')).toEqual({ working: false, from: ms('2026-11-23T17:00:00Z'), until: ms('2026-11-23T18:00:00Z') });
    expect(at('2026-11-23T23:00:00Z')).toEqual({ working: false, from: ms('2026-11-23T22:00:00Z'), until: ms('2026-11-24T05:00:00Z') });
    // Every quarter hour of a week: the answer is the same at the span's first instant and its last.
    for (let t = ms('2026-11-22T00:00:00Z'); t < ms('2026-11-30T00:00:00Z'); t += 15 * 60_000) {
      const span = workingTimeSpan(hours, new Date(t));
      expect(span.from <= t && t < span.until).toBe(true);
      expect(workingTimeSpan(hours, new Date(span.from)).working).toBe(span.working);
      expect(workingTimeSpan(hours, new Date(span.until - 1)).working).toBe(span.working);
    }
  });
});
