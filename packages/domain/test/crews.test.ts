import {
  DEFAULT_SCHEDULE_SETTINGS,
  DEFAULT_WEEKLY_HOURS,
  chooseCrew,
  crewsFreeAt,
  crewToTake,
  formatLocalIso,
  openTimes,
  openTimesOfCrews,
  parseStart,
  whyCrewCannotTake,
  whyNoCrewFree,
  whyNotOpen,
  type CrewSchedule,
  type CrewsQuery,
  type ScheduleRules,
} from '../src';

const NY = 'America/New_York';
const rules: ScheduleRules = { timezone: NY, weekly_hours: DEFAULT_WEEKLY_HOURS, ...DEFAULT_SCHEDULE_SETTINGS };
const at = (local: string) => parseStart(local, NY);
const crew = (id: string, over: Partial<CrewSchedule> = {}): CrewSchedule => ({ id, weekly_hours: null, busy: [], timeOff: [], ...over });
/** A two-hour job, blocked until its end plus the 30-minute buffer. */
const job = (local: string) => ({ start: at(local), blockedUntil: new Date(at(local).getTime() + 150 * 60_000) });
// Monday 2026-11-23, asked the Friday before.
const query = (crews: CrewSchedule[], over: Partial<CrewsQuery> = {}): CrewsQuery => ({
  rules,
  durationMinutes: 120,
  now: new Date('2026-11-20T12:00:00Z'),
  from: '2026-11-23',
  days: 1,
  crews,
  ...over,
});
const starts = (q: CrewsQuery) => openTimesOfCrews(q).map((o) => formatLocalIso(o.start, NY).slice(11, 16));

describe('openTimesOfCrews', () => {
  it('is exactly one schedule for a business of one crew', () => {
    const busy = [job('2026-11-23T10:00')];
    const one = openTimesOfCrews(query([crew('a', { busy })]));
    expect(one).toEqual(openTimes({ ...query([]), busy, timeOff: [] }));
  });

  it('offers a start while any crew can take it, each start once and in order', () => {
    const a = crew('a', { busy: [job('2026-11-23T10:00')] });
    const b = crew('b', { busy: [job('2026-11-23T13:00')] });
    const both = starts(query([a, b]));
    expect(both).toContain('10:00'); // b is free
    expect(both).toContain('13:00'); // a is free
    expect(new Set(both).size).toBe(both.length);
    expect([...both].sort()).toEqual(both);
    expect(starts(query([a, b, crew('c', { busy: [job('2026-11-23T10:00')] })]))).toEqual(both);
  });

  it("follows a crew's own hours and its time off, and the business's time off for all", () => {
    const late = crew('late', { weekly_hours: { '1': [{ start: '12:00', end: '17:00' }] } });
    expect(starts(query([late]))[0]).toBe('12:00');
    const off = { start: at('2026-11-23T00:00'), end: at('2026-11-24T00:00') };
    expect(starts(query([crew('a', { timeOff: [off] }), late]))[0]).toBe('12:00');
    expect(starts(query([crew('a', { timeOff: [off] }), crew('b', { timeOff: [off] })]))).toEqual([]);
  });

  it('stops at the limit over the union', () => {
    expect(openTimesOfCrews(query([crew('a'), crew('b', { weekly_hours: { '1': [{ start: '06:00', end: '09:00' }] } })], { limit: 2 }))).toHaveLength(2);
  });
});

describe('whyNoCrewFree and crewsFreeAt', () => {
  it('names every crew busy when all are, and the closest reason otherwise', () => {
    const q = query([crew('a', { busy: [job('2026-11-23T10:00')] }), crew('b', { busy: [job('2026-11-23T10:00')] })]);
    expect(whyNoCrewFree(q, at('2026-11-23T10:00'))!.message).toMatch(/every crew is busy then/);
    const oneCrew = query([crew('a', { busy: [job('2026-11-23T10:00')] })]);
    expect(whyNoCrewFree(oneCrew, at('2026-11-23T10:00'))).toEqual(
      whyNotOpen({ ...oneCrew, busy: oneCrew.crews[0]!.busy, timeOff: [] }, at('2026-11-23T10:00')),
    );
    const closed = query([crew('a', { busy: [job('2026-11-23T10:00')] }), crew('b', { weekly_hours: { '2': [{ start: '08:00', end: '17:00' }] } })]);
    expect(whyNoCrewFree(closed, at('2026-11-23T10:00'))!.reason).toBe('taken');
    expect(crewsFreeAt(closed, at('2026-11-23T14:00')).map((c) => c.id)).toEqual(['a']);
    expect(whyNoCrewFree(closed, at('2026-11-23T14:00'))).toBeNull();
  });
});

describe('chooseCrew (the assignment rule)', () => {
  it('picks the free crew holding the fewest minutes that local day, then the first in order', () => {
    const a = crew('a', { busy: [job('2026-11-23T08:00')] });
    const b = crew('b');
    const c = crew('c');
    expect(chooseCrew([a, b, c], at('2026-11-23T14:00'), NY)!.id).toBe('b');
    // Minutes on another day do not count.
    const aOtherDay = crew('a', { busy: [job('2026-11-24T08:00')] });
    expect(chooseCrew([aOtherDay, b], at('2026-11-23T14:00'), NY)!.id).toBe('a');
    expect(chooseCrew([], at('2026-11-23T14:00'), NY)).toBeUndefined();
    // The crew a job should stay with wins while it is free.
    expect(crewToTake(query([a, b]), at('2026-11-23T14:00'), 'a')!.id).toBe('a');
    expect(crewToTake(query([a, b]), at('2026-11-23T08:00'), 'a')!.id).toBe('b');
  });
});

describe('whyCrewCannotTake', () => {
  const held = { start: at('2026-11-23T09:00'), end: at('2026-11-23T11:00'), blockedUntil: at('2026-11-23T11:30') };
  const now = new Date('2026-11-23T13:00:00Z'); // 8 AM: inside the notice, which does not apply
  it('needs the hours, a clear time and no time off, but not the notice', () => {
    expect(whyCrewCannotTake(rules, crew('a'), held, now)).toBeNull();
    expect(whyCrewCannotTake(rules, crew('a', { weekly_hours: { '1': [{ start: '10:00', end: '17:00' }] } }), held, now)).toMatch(/outside its working hours/);
    expect(whyCrewCannotTake(rules, crew('a', { busy: [job('2026-11-23T06:45')] }), held, now)).toMatch(/overlaps another of its jobs/);
    expect(whyCrewCannotTake(rules, crew('a', { timeOff: [{ start: at('2026-11-23T10:00'), end: at('2026-11-23T12:00') }] }), held, now)).toMatch(/time off/);
  });
});
