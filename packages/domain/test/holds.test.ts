import { holdOwner, ownsHold, sameJob, normalizeJob, formatTimeOfDay } from '../src';

describe('who owns a hold', () => {
  it('is the same credential, and behind a shared one the same email or phone however written', () => {
    const owner = holdOwner('public', { email: 'Ana@Example.com', phone: null });
    expect(ownsHold(owner, holdOwner('public', { email: 'ana@example.com', phone: null }), true)).toBe(true);
    expect(ownsHold(owner, holdOwner('public', { email: 'bo@example.com', phone: null }), true)).toBe(false);
    expect(ownsHold(owner, holdOwner('public'), true)).toBe(false);
    const byPhone = holdOwner('public', { email: null, phone: '(212) 555-0100' });
    expect(ownsHold(byPhone, holdOwner('public', { email: 'x@example.com', phone: '212 555 0100' }), true)).toBe(true);
    expect(ownsHold(holdOwner('pro:pro_1'), holdOwner('pro:pro_1'), false)).toBe(true);
    expect(ownsHold(holdOwner('pro:pro_1'), holdOwner('pro:pro_2'), false)).toBe(false);
  });
});

describe('the same job', () => {
  it('ignores the order of add-ons and nothing else', () => {
    const a = normalizeJob({ bedrooms: 2, bathrooms: 1, add_ons: ['oven', 'fridge'] });
    expect(sameJob(a, normalizeJob({ bedrooms: 2, bathrooms: 1, add_ons: ['Fridge', 'oven'] }))).toBe(true);
    expect(sameJob(a, normalizeJob({ bedrooms: 3, bathrooms: 1, add_ons: ['oven', 'fridge'] }))).toBe(false);
    expect(sameJob(a, normalizeJob({ bedrooms: 2, bathrooms: 1, add_ons: ['oven'] }))).toBe(false);
  });
});

describe('a time of day', () => {
  it('says the hour and minute in the zone, with its abbreviation', () => {
    expect(formatTimeOfDay(new Date('2026-11-24T15:42:00Z'), 'America/New_York')).toBe('10:42 AM EST');
    expect(formatTimeOfDay(new Date('2026-07-01T04:05:00Z'), 'America/New_York')).toBe('12:05 AM EDT');
  });
});
