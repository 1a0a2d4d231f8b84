import type { Cents } from './money';
import { CLEAN_TYPES, type CleanType, type Frequency } from './job';

export interface CleanTypeRule {
  /** Price multiplier in percent of the standard clean (150 = 1.5x). */
  price_pct: number;
  /** Time multiplier in percent of the standard clean. */
  hours_pct: number;
}

export interface AddOn {
  label: string;
  price_cents: Cents;
  minutes: number;
}

/** A pro's own price list, stored as JSON on the pro's row. All money in cents. */
export interface PriceList {
  base_cents: Cents;
  per_bedroom_cents: Cents;
  /** A half bath is charged at half this price. */
  per_bathroom_cents: Cents;
  /** Clean types offered; a type missing here is not offered. */
  clean_types: Partial<Record<CleanType, CleanTypeRule>>;
  minimum_cents: Cents;
  sqft: {
    /** Usual home size by bedroom count (index 0..10); larger homes pay the surcharge. */
    usual_max_by_bedrooms: number[];
    surcharge_cents_per_100: Cents;
  };
  /** Discount in percent per recurring frequency; a frequency missing here has none. */
  frequency_discount_pct: Partial<Record<Exclude<Frequency, 'once'>, number>>;
  /** True: the first visit of a recurring plan already gets the recurring price. */
  first_visit_discounted: boolean;
  add_ons: Record<string, AddOn>;
  pets_fee_cents: Cents;
  hours: {
    base: number;
    per_bedroom: number;
    per_bathroom: number;
    per_100_sqft_over: number;
  };
  crew_size: number;
}

/** What a new pro starts with (DESIGN.md, Pricing); each pro edits its own copy. */
export const DEFAULT_PRICE_LIST: PriceList = {
  base_cents: 6000,
  per_bedroom_cents: 2000,
  per_bathroom_cents: 2500,
  clean_types: {
    standard: { price_pct: 100, hours_pct: 100 },
    deep: { price_pct: 150, hours_pct: 160 },
    move_out: { price_pct: 180, hours_pct: 180 },
    turnover: { price_pct: 110, hours_pct: 100 },
  },
  minimum_cents: 12000,
  sqft: {
    usual_max_by_bedrooms: [600, 900, 1200, 1700, 2300, 2900, 3500, 4100, 4700, 5300, 5900],
    surcharge_cents_per_100: 800,
  },
  frequency_discount_pct: { weekly: 20, biweekly: 15, monthly: 10 },
  first_visit_discounted: true,
  add_ons: {
    fridge: { label: 'Inside the fridge', price_cents: 3500, minutes: 30 },
    oven: { label: 'Inside the oven', price_cents: 3500, minutes: 30 },
    windows: { label: 'Interior windows', price_cents: 4000, minutes: 45 },
    cabinets: { label: 'Inside cabinets', price_cents: 3000, minutes: 30 },
    laundry: { label: 'Laundry (wash and fold)', price_cents: 2500, minutes: 30 },
  },
  pets_fee_cents: 1500,
  hours: { base: 1, per_bedroom: 0.5, per_bathroom: 0.5, per_100_sqft_over: 0.1 },
  crew_size: 2,
};

/** Offered clean types in the contract's order (stored JSON does not keep key order). */
export function offeredCleanTypes(list: PriceList): CleanType[] {
  return CLEAN_TYPES.filter((t) => list.clean_types[t]);
}

/** Offered add-on names, alphabetically (stored JSON does not keep key order). */
export function offeredAddOns(list: PriceList): string[] {
  return Object.keys(list.add_ons).sort();
}

/**
 * The add-on a name stands for, if the list offers it. Names come from callers, so only the
 * list's own entries count: `__proto__` or `constructor` are not add-ons.
 */
export function addOnOf(list: PriceList, name: string): AddOn | undefined {
  return Object.hasOwn(list.add_ons, name) ? list.add_ons[name] : undefined;
}

/**
 * The add-ons asked that none of `lists` offers, and every add-on they offer: the one
 * judgement of the add-ons a job asks for, by one business's list (requireFirmQuote) or by
 * those of every cleaner serving a ZIP (requireAddOnsOffered). A name is judged only by the
 * lists: no list offers "nan", "-1" or an emoji, so each is refused wherever there is a list.
 */
export function addOnsOfferedBy(lists: readonly PriceList[], names: readonly string[]): { missing: string[]; offered: string[] } {
  const missing = names.filter((name) => !lists.some((list) => addOnOf(list, name)));
  return { missing, offered: [...new Set(lists.flatMap(offeredAddOns))].sort() };
}

/** The names among `names` that the list does not offer as add-ons, in the order given. */
export function addOnsNotOffered(list: PriceList, names: readonly string[]): string[] {
  return addOnsOfferedBy([list], names).missing;
}
