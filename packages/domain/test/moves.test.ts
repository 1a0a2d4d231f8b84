import { moveWindow, visitPassed } from '../src';

// Where a job may move: the days a move page lists (moveWindow), and the order a series keeps (visitPassed).
describe('the days a move page lists', () => {
  it('are the week before and the week after the job’s own date, with a week either side a link away', () => {
    expect(moveWindow({ jobDate: '2026-12-16', today: '2026-11-27' })).toEqual({
      from: '2026-12-09',
      days: 15,
      through: '2026-12-23',
      earlier: '2026-12-02',
      later: '2026-12-24',
      around: true,
    });
  });

  it('never start before today: a job next week lists from today, with nothing earlier', () => {
    expect(moveWindow({ jobDate: '2026-11-30', today: '2026-11-27' })).toEqual({
      from: '2026-11-27',
      days: 11,
      through: '2026-12-07',
      earlier: null,
      later: '2026-12-08',
      around: true,
    });
    // A job today still lists a week ahead of it.
    expect(moveWindow({ jobDate: '2026-11-27', today: '2026-11-27' })).toMatchObject({ from: '2026-11-27', through: '2026-12-04', days: 8 });
  });

  it('list a week picked with a link from that day, from today when that day has passed, and ignore a day that is no date', () => {
    expect(moveWindow({ jobDate: '2026-12-16', today: '2026-11-27', from: '2026-12-24' })).toEqual({
      from: '2026-12-24',
      days: 7,
      through: '2026-12-30',
      earlier: '2026-12-17',
      later: '2026-12-31',
      around: false,
    });
    expect(moveWindow({ jobDate: '2026-12-16', today: '2026-11-27', from: '2026-11-20' })).toMatchObject({ from: '2026-11-27', days: 7, earlier: null });
    expect(moveWindow({ jobDate: '2026-12-16', today: '2026-11-27', from: '2026-12-02' })).toMatchObject({ earlier: '2026-11-27' });
    expect(moveWindow({ jobDate: '2026-12-16', today: '2026-11-27', from: '2026-02-30' })).toMatchObject({ from: '2026-12-09', around: true });
  });
});

describe('the order a series keeps', () => {
  const neighbours = { before: '2026-12-09', after: '2026-12-23' };
  it('lets a visit move between the visits around it, alone or with the later ones', () => {
    expect(visitPassed({ to: '2026-12-10', ...neighbours, andFollowing: false })).toBeNull();
    expect(visitPassed({ to: '2026-12-22', ...neighbours, andFollowing: false })).toBeNull();
  });

  it('refuses the day of the visit before it or earlier, even with the later visits', () => {
    expect(visitPassed({ to: '2026-12-09', ...neighbours, andFollowing: false })).toBe('before');
    expect(visitPassed({ to: '2026-12-01', ...neighbours, andFollowing: true })).toBe('before');
  });

  it('refuses the day of the visit after it or later when it moves alone, not with the later visits', () => {
    expect(visitPassed({ to: '2026-12-23', ...neighbours, andFollowing: false })).toBe('after');
    expect(visitPassed({ to: '2026-12-30', ...neighbours, andFollowing: true })).toBeNull();
  });

  it('lets the first visit move anywhere before the next, and the last anywhere after the one before', () => {
    expect(visitPassed({ to: '2026-11-28', after: '2026-12-23', andFollowing: false })).toBeNull();
    expect(visitPassed({ to: '2027-03-01', before: '2026-12-09', andFollowing: false })).toBeNull();
  });
});
