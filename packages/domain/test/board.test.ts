import { boardDay, boardFlags, boardRows, boardWeek, boardWindow, minutesOnDay, InvalidInputError } from '../src';

const NY = 'America/New_York';

describe('the board’s week', () => {
  it('runs Monday to Sunday in the business’s zone, from any day of it', () => {
    const week = boardWeek('2026-11-29', '2026-11-23', NY);
    expect(week.start).toBe('2026-11-23');
    expect(week.days).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']);
    expect([week.previous, week.next]).toEqual(['2026-11-16', '2026-11-30']);
    expect(week.from.toISOString()).toBe('2026-11-23T05:00:00.000Z');
    expect(week.to.toISOString()).toBe('2026-11-30T05:00:00.000Z');
    expect(week.spans[6]).toEqual({ date: '2026-11-29', from: Date.parse('2026-11-29T05:00:00Z'), to: Date.parse('2026-11-30T05:00:00Z') });
    expect(boardWeek(undefined, '2026-11-25', NY).start).toBe('2026-11-23');
  });

  it('refuses what is no day, in words', () => {
    for (const bad of ['2026-02-30', 'soon', '2026-1-5']) expect(() => boardWeek(bad, '2026-11-23', NY)).toThrow(InvalidInputError);
    expect(() => boardWeek('soon', '2026-11-23', NY)).toThrow('"soon" is not a day on the calendar');
  });
});

describe('where things sit in a day’s column', () => {
  it('shows whole hours from the earliest start to the latest end, and places spans in 15-minute rows, clipped to them', () => {
    const window = boardWindow([
      { from: 8 * 60, to: 17 * 60 },
      { from: 7 * 60 + 30, to: 9 * 60 },
      { from: 16 * 60, to: 18 * 60 + 10 },
    ]);
    expect(window).toEqual({ from: 7 * 60, to: 19 * 60 });
    expect(boardWindow([])).toEqual({ from: 8 * 60, to: 17 * 60 });
    expect(boardRows({ from: 9 * 60, to: 11 * 60 + 30 }, window)).toEqual({ row: 9, rows: 10 });
    expect(boardRows({ from: 9 * 60 + 10, to: 9 * 60 + 20 }, window)).toEqual({ row: 9, rows: 2 });
    expect(boardRows({ from: 0, to: 24 * 60 }, window)).toEqual({ row: 1, rows: 48 });
  });

  it('cuts a span at the day’s midnights, on a day clocks change too', () => {
    const span = { start: new Date('2026-11-01T04:00:00Z'), end: new Date('2026-11-02T05:00:00Z') };
    expect(minutesOnDay(span, boardDay('2026-11-01', NY), NY)).toEqual({ from: 0, to: 24 * 60 });
    expect(minutesOnDay(span, boardDay('2026-11-02', NY), NY)).toBeNull();
    expect(minutesOnDay({ start: new Date('2026-11-24T14:00:00Z'), end: new Date('2026-11-24T16:30:00Z') }, boardDay('2026-11-24', NY), NY)).toEqual({
      from: 540,
      to: 690,
    });
  });
});

describe('what about a job needs a look', () => {
  const crew = { id: 'c1', name: 'Day Crew', hours: { '2': [{ start: '08:00', end: '11:00' }] } };
  const job = { starts_at: new Date('2026-11-24T15:00:00Z'), ends_at: new Date('2026-11-24T17:00:00Z') };
  it('says when it runs past its crew’s hours, and when it falls in its crew’s time off or the business’s', () => {
    expect(boardFlags(job, crew, { timeOff: [], zone: NY })).toEqual(["Outside Day Crew's working hours."]);
    const timeOff = [
      { crew_id: 'c1', starts_at: new Date('2026-11-24T16:00:00Z'), ends_at: new Date('2026-11-24T18:00:00Z'), note: null },
      { crew_id: null, starts_at: new Date('2026-11-24T05:00:00Z'), ends_at: new Date('2026-11-25T05:00:00Z'), note: 'Inventory' },
      { crew_id: 'c2', starts_at: new Date('2026-11-24T05:00:00Z'), ends_at: new Date('2026-11-25T05:00:00Z'), note: null },
    ];
    const fits = { ...crew, hours: { '2': [{ start: '08:00', end: '17:00' }] } };
    expect(boardFlags(job, fits, { timeOff, zone: NY })).toEqual(["During Day Crew's time off.", 'While the business is closed (Inventory).']);
    expect(boardFlags(job, fits, { timeOff: [timeOff[2]!], zone: NY })).toEqual([]);
  });
});
