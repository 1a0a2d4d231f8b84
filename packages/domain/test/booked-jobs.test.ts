import { monthJobs, type MonthVisit } from '../src';

// What the month's report counts as a booked job and what it is worth (monthJobs).
const visit = (job: string, over: Partial<MonthVisit> = {}): MonthVisit => ({
  job,
  channel: 'pro',
  status: 'booked',
  priceCents: 10_000,
  feeCents: 0,
  feeWaived: false,
  crewId: 'crew_a',
  crewName: 'A',
  startsAt: new Date('2026-11-24T14:00:00Z'),
  ...over,
});
const day = (n: number) => new Date(Date.UTC(2026, 10, n, 14));

describe('a booked job', () => {
  it('is a series as a whole, worth its booked visits, on the crew of its first booked visit', () => {
    const jobs = monthJobs([
      visit('sr_1', { startsAt: day(24), status: 'cancelled', crewId: 'crew_b', crewName: 'B' }),
      visit('sr_1', { startsAt: day(26), crewId: 'crew_c', crewName: 'C' }),
      visit('sr_1', { startsAt: day(25), crewId: 'crew_a', crewName: 'A', priceCents: 12_000 }),
      visit('sr_1', { startsAt: day(27), status: 'no_show' }),
    ]);
    expect(jobs.booked).toEqual([{ job: 'sr_1', channel: 'pro', worthCents: 22_000, crewId: 'crew_a', crewName: 'A' }]);
    expect([jobs.cancelled, jobs.noShows]).toEqual([[], []]);
  });

  it('is not one once nothing of it is booked: a no-show if a visit was missed, else cancelled', () => {
    const jobs = monthJobs([
      visit('bk_1', { status: 'no_show', channel: 'book', feeCents: 500, feeWaived: true }),
      visit('sr_2', { status: 'cancelled' }),
      visit('sr_2', { status: 'no_show', startsAt: day(20) }),
      visit('bk_3', { status: 'cancelled', channel: 'book', feeCents: 500 }),
    ]);
    expect(jobs.booked).toEqual([]);
    expect(jobs.noShows).toEqual([{ channel: 'book' }, { channel: 'pro' }]);
    expect(jobs.cancelled).toEqual([{ channel: 'book' }]);
    // No fee is due on a cancelled visit or one waived for a no-show.
    expect([jobs.feesDueCents, jobs.feesWaived]).toEqual([0, 1]);
  });

  it('owes its fee while not cancelled and not waived', () => {
    const jobs = monthJobs([visit('bk_1', { channel: 'book', feeCents: 500 }), visit('bk_2', { channel: 'book', feeCents: 500 })]);
    expect(jobs.feesDueCents).toBe(1_000);
  });
});
