import { businessMoveMailAddress, nearestFirst, notPaused, pauseOf, planInWords, clockTime, shiftedWith } from '../src';

// Recurring plans: what a pause skips and where the plan carries on, where later visits go when
// one moves with them, the open times nearest a job first, a plan in words, and who may be
// emailed a business's move.
describe('a pause of a plan', () => {
  it('skips exactly the weeks asked from the visit on, and carries on with the next date on its rhythm', () => {
    const weekly = { firstDate: '2026-11-24', frequency: 'weekly' as const };
    expect(pauseOf(weekly, '2026-12-08', 2)).toEqual({
      from: '2026-12-08',
      before: '2026-12-22',
      dates: ['2026-12-08', '2026-12-15'],
      resumesOn: '2026-12-22',
    });
    const biweekly = { firstDate: '2026-11-24', frequency: 'biweekly' as const };
    expect(pauseOf(biweekly, '2026-12-08', 3)).toMatchObject({ dates: ['2026-12-08', '2026-12-22'], resumesOn: '2027-01-05' });
    const monthly = { firstDate: '2026-11-24', frequency: 'monthly' as const };
    expect(pauseOf(monthly, '2026-12-22', 1)).toMatchObject({ dates: ['2026-12-22'], resumesOn: '2027-01-19' });
  });

  it('leaves the skipped dates out of what the horizon books', () => {
    expect(notPaused(['2026-12-01', '2026-12-08', '2026-12-15'], ['2026-12-08'])).toEqual(['2026-12-01', '2026-12-15']);
  });
});

describe('moving a visit with every later one', () => {
  it('moves each later visit by the same number of days', () => {
    expect(shiftedWith(['2026-12-08', '2026-12-15'], { from: '2026-12-01', to: '2026-12-03' })).toEqual(['2026-12-10', '2026-12-17']);
    expect(shiftedWith(['2026-12-08'], { from: '2026-12-01', to: '2026-11-30' })).toEqual(['2026-12-07']);
  });
});

describe('the open times nearest a job', () => {
  it('come first, before or after its start, and the rest keep their order', () => {
    const times = ['2026-12-01T08:00:00-05:00', '2026-12-02T09:00:00-05:00', '2026-12-03T09:00:00-05:00', '2026-12-08T09:00:00-05:00'].map((start) => ({
      start,
    }));
    const { nearest, rest } = nearestFirst(times, new Date('2026-12-02T14:30:00Z'), 2);
    expect(nearest.map((t) => t.start)).toEqual(['2026-12-02T09:00:00-05:00', '2026-12-03T09:00:00-05:00']);
    expect(rest.map((t) => t.start)).toEqual(['2026-12-01T08:00:00-05:00', '2026-12-08T09:00:00-05:00']);
  });
});

describe('a plan in words', () => {
  it('says how often, on which day and at what time', () => {
    expect(planInWords({ frequency: 'biweekly', weekday: 'Tuesday', time: clockTime(9 * 60) })).toBe('Every 2 weeks on Tuesdays at 9:00 AM');
    expect(planInWords({ frequency: 'monthly' })).toBe('Every 4 weeks');
    expect(clockTime(12 * 60 + 30)).toBe('12:30 PM');
  });
});

describe("the email of a business's move", () => {
  it("goes to a customer who gave an email, never to a platform lead's", () => {
    expect(businessMoveMailAddress({ customer_email: ' kim@example.com ' }, { platformLead: false })).toBe('kim@example.com');
    expect(businessMoveMailAddress({ customer_email: 'kim@example.com' }, { platformLead: true })).toBeNull();
    expect(businessMoveMailAddress({ customer_email: null }, { platformLead: false })).toBeNull();
  });
});
