import { DEFAULT_PRICE_LIST, InvalidInputError, formatUsd, normalizeJob, priceJob, requireAddOnsOffered, requireFirmQuote, type PriceList } from '../src';

const list: PriceList = DEFAULT_PRICE_LIST;
const job = (over: Partial<Parameters<typeof normalizeJob>[0]> = {}) => normalizeJob({ bedrooms: 3, bathrooms: 2, ...over });
const sum = (q: ReturnType<typeof priceJob>) => q.line_items.reduce((s, l) => s + l.amount_cents, 0);

describe('priceJob', () => {
  it('prices base + bedrooms + bathrooms with line items that add up to the total', () => {
    const q = priceJob(job(), list);
    expect(q.total_cents).toBe(6000 + 3 * 2000 + 2 * 2500);
    expect(sum(q)).toBe(q.total_cents);
    expect(q.unpriced).toEqual([]);
  });

  it('charges a half bath at half the bathroom price', () => {
    const whole = priceJob(job({ bathrooms: 2 }), list).total_cents;
    const half = priceJob(job({ bathrooms: 2.5 }), list).total_cents;
    expect(half - whole).toBe(list.per_bathroom_cents / 2);
  });

  it('applies the clean type multiplier as its own line', () => {
    const standard = priceJob(job(), list);
    const deep = priceJob(job({ clean_type: 'deep' }), list);
    expect(deep.total_cents).toBe(Math.round(standard.total_cents * 1.5));
    expect(deep.line_items.some((l) => l.label.startsWith('Deep clean'))).toBe(true);
    expect(deep.estimated_hours).toBeGreaterThan(standard.estimated_hours);
  });

  it('raises a small job to the minimum and says so', () => {
    const q = priceJob(job({ bedrooms: 0, bathrooms: 1 }), list);
    expect(q.total_cents).toBe(list.minimum_cents);
    expect(q.minimum_applied).toBe(true);
    expect(sum(q)).toBe(q.total_cents);
  });

  it('adds the sqft surcharge only when sqft is given and above the usual size', () => {
    const none = priceJob(job(), list).total_cents;
    expect(priceJob(job({ sqft: 1700 }), list).total_cents).toBe(none);
    expect(priceJob(job({ sqft: 1000 }), list).total_cents).toBe(none);
    // 3 bedrooms: usual up to 1,700 sq ft; 2,350 is 650 over = 7 started blocks of 100.
    expect(priceJob(job({ sqft: 2350 }), list).total_cents).toBe(none + 7 * 800);
  });

  it('discounts recurring cleanings on the cleaning only, and says the first visit is included', () => {
    const once = priceJob(job({ add_ons: ['oven'] }), list);
    const weekly = priceJob(job({ add_ons: ['oven'], frequency: 'weekly' }), list);
    const cleaning = once.total_cents - 3500;
    expect(weekly.total_cents).toBe(once.total_cents - Math.round(cleaning * 0.2));
    expect(weekly.recurring).toMatchObject({ discount_pct: 20, first_visit_discounted: true });
    expect(weekly.summary).toMatch(/first one included/);
  });

  it('prices the first visit in full when the list says so', () => {
    const fullFirst = { ...list, first_visit_discounted: false };
    const once = priceJob(job(), fullFirst);
    const weekly = priceJob(job({ frequency: 'weekly' }), fullFirst);
    expect(weekly.total_cents).toBe(once.total_cents);
    expect(weekly.recurring?.visit_total_cents).toBe(Math.round(once.total_cents * 0.8));
    expect(weekly.summary).toMatch(/first visit is at the full price/);
  });

  it('adds add-on prices and minutes, and the pets fee', () => {
    const plain = priceJob(job(), list);
    const extra = priceJob(job({ add_ons: ['fridge', 'windows'], pets: true }), list);
    expect(extra.total_cents - plain.total_cents).toBe(3500 + 4000 + 1500);
    expect(extra.labor_hours).toBeCloseTo(plain.labor_hours + 75 / 60, 2);
  });

  it('divides labor by the crew and rounds the visit up to a quarter hour', () => {
    const q = priceJob(job(), list); // 1 + 1.5 + 1 = 3.5 labor hours, crew of 2
    expect(q.labor_hours).toBe(3.5);
    expect(q.estimated_hours).toBe(1.75);
    expect(q.duration_minutes).toBe(105);
    const solo = priceJob(job(), { ...list, crew_size: 1 });
    expect(solo.estimated_hours).toBe(3.5);
  });

  it('leaves what is not offered out of the total and lists it', () => {
    const q = priceJob(job({ add_ons: ['garage', 'oven'] }), list);
    expect(q.unpriced).toEqual(['add-on "garage"']);
    expect(sum(q)).toBe(q.total_cents);
  });
});

describe('requireFirmQuote', () => {
  it('refuses an add-on the pro does not offer, listing what is offered', () => {
    expect(() => requireFirmQuote(job({ add_ons: ['garage'] }), list)).toThrow(
      /does not offer the add-on "garage"; add-ons offered: cabinets, fridge, laundry, oven, windows/,
    );
  });

  it('refuses a clean type the pro does not offer', () => {
    const noTurnover = { ...list, clean_types: { standard: { price_pct: 100, hours_pct: 100 } } };
    expect(() => requireFirmQuote(job({ clean_type: 'turnover' }), noTurnover)).toThrow(InvalidInputError);
    expect(() => requireFirmQuote(job({ clean_type: 'turnover' }), noTurnover)).toThrow(/clean types offered: standard/);
  });
});

describe('requireAddOnsOffered', () => {
  const garage = { ...list, add_ons: { garage: { label: 'Garage', price_cents: 5000, minutes: 60 } } };
  it('refuses an add-on no list offers, naming every add-on offered among them, and lets one that any list offers through', () => {
    expect(() => requireAddOnsOffered(job({ add_ons: ['NaN', 'garage'] }), [list, garage], '10001')).toThrow(
      'No cleaner serving ZIP 10001 offers the add-on "nan"; add-ons offered there: cabinets, fridge, garage, laundry, oven, windows.',
    );
    expect(() => requireAddOnsOffered(job({ add_ons: ['garage', 'oven'] }), [list, garage], '10001')).not.toThrow();
  });

  it('judges nothing without a list: nobody serving the ZIP is said otherwise', () => {
    expect(() => requireAddOnsOffered(job({ add_ons: ['-1'] }), [], '10001')).not.toThrow();
  });
});

describe('formatUsd', () => {
  it('writes dollars as en-US grouping writes them, with two decimals and a sign', () => {
    for (const cents of [0, 5, 99, 100, 12_345, 99_999, 100_000, 123_456, 1_234_567_89, -5, -100_001, 1e15, 19_999.6]) {
      const abs = Math.abs(Math.round(cents));
      const expected = `${cents < 0 ? '-' : ''}$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
      expect(formatUsd(cents)).toBe(expected);
    }
    expect(formatUsd(123_456)).toBe('$1,234.56');
    expect(formatUsd(99_900)).toBe('$999.00');
  });
});
