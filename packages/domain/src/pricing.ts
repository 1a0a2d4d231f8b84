import type { quoteSchema } from './answer-schemas';
import type { Static } from './schema';
import { CLEAN_TYPE_LABELS, FREQUENCY_LABELS, type Job } from './job';
import { formatUsd, percentOf, toUsd, type Cents } from './money';
import { addOnOf, addOnsOfferedBy, offeredCleanTypes, type PriceList } from './price-list';
import { jobNotOffered } from './words/pricing';

export interface LineItem {
  label: string;
  amount_cents: Cents;
}

export interface Quote {
  job: Job;
  total_cents: Cents;
  line_items: LineItem[];
  /** Hours the crew is on site. */
  estimated_hours: number;
  /** Person-hours of work, before dividing by the crew. */
  labor_hours: number;
  crew_size: number;
  /** Minutes the job blocks on the schedule (travel buffer not included). */
  duration_minutes: number;
  recurring: null | {
    frequency: Job['frequency'];
    discount_pct: number;
    visit_total_cents: Cents;
    first_visit_discounted: boolean;
  };
  minimum_applied: boolean;
  /** What could not be priced (clean type or add-on not offered); empty for a firm quote. */
  unpriced: string[];
  summary: string;
}

const bathLabel = (n: number) => `${n} bathroom${n === 1 ? '' : 's'}`;
const bedLabel = (n: number) => `${n} bedroom${n === 1 ? '' : 's'}`;

function roundQuarterHourUp(hours: number): number {
  return Math.ceil(hours * 4 - 1e-9) / 4;
}

/** Usual size for the bedroom count (the list covers 0..10; beyond, the last entry). */
function usualSqft(list: PriceList, bedrooms: number): number {
  const table = list.sqft.usual_max_by_bedrooms;
  return table[Math.min(bedrooms, table.length - 1)] ?? Number.POSITIVE_INFINITY;
}

/** The rooms' lines (the base visit, bedrooms, bathrooms, a larger home than usual) and how far over the usual size it is. */
function roomLines(job: Job, list: PriceList): { lines: LineItem[]; overSqft: number } {
  const lines: LineItem[] = [{ label: 'Base visit', amount_cents: list.base_cents }];
  if (job.bedrooms > 0) lines.push({ label: bedLabel(job.bedrooms), amount_cents: job.bedrooms * list.per_bedroom_cents });
  // Half baths cost half a bathroom: whole baths at the full price, the half at half.
  const bathCents = Math.round(job.bathrooms * 2) * (list.per_bathroom_cents / 2);
  lines.push({ label: bathLabel(job.bathrooms), amount_cents: Math.round(bathCents) });
  const usual = job.sqft === null ? Number.POSITIVE_INFINITY : usualSqft(list, job.bedrooms);
  if (job.sqft === null || job.sqft <= usual) return { lines, overSqft: 0 };
  const overSqft = job.sqft - usual;
  lines.push({
    label: `Larger home: ${job.sqft.toLocaleString('en-US')} sq ft (usual up to ${usual.toLocaleString('en-US')} for ${bedLabel(job.bedrooms)})`,
    amount_cents: Math.ceil(overSqft / 100) * list.sqft.surcharge_cents_per_100,
  });
  return { lines, overSqft };
}

/** The add-ons' lines, what they add and how long they take; one the pro does not offer is named in `unpriced`. */
function addOnLines(job: Job, list: PriceList, unpriced: string[]): { lines: LineItem[]; cents: number; minutes: number } {
  const lines: LineItem[] = [];
  let cents = 0;
  let minutes = 0;
  for (const name of job.add_ons) {
    const addOn = addOnOf(list, name);
    if (!addOn) {
      unpriced.push(`add-on "${name}"`);
      continue;
    }
    lines.push({ label: addOn.label, amount_cents: addOn.price_cents });
    cents += addOn.price_cents;
    minutes += addOn.minutes;
  }
  return { lines, cents, minutes };
}

/** The labor the job takes by the pro's list, and the time on site with its crew (rounded up to a quarter hour). */
function hoursFor(job: Job, list: PriceList, o: { hoursPct: number; overSqft: number; addOnMinutes: number }) {
  const h = list.hours;
  const laborHours =
    ((h.base + job.bedrooms * h.per_bedroom + job.bathrooms * h.per_bathroom + (o.overSqft / 100) * h.per_100_sqft_over) * o.hoursPct) / 100 +
    o.addOnMinutes / 60;
  const crew = Math.max(1, list.crew_size);
  return { laborHours, crew, onSite: roundQuarterHourUp(laborHours / crew) };
}

/**
 * Prices a job from the pro's own list. Never throws: what the pro does not offer is
 * listed in `unpriced` and left out of the total; use `requireFirmQuote` where the
 * contract refuses such a job.
 */
export function priceJob(job: Job, list: PriceList): Quote {
  const unpriced: string[] = [];
  const typeRule = list.clean_types[job.clean_type];
  if (!typeRule) unpriced.push(`clean type "${job.clean_type}"`);
  const pricePct = typeRule?.price_pct ?? 100;
  const rooms = roomLines(job, list);
  const lines = rooms.lines;
  const roomsCents = lines.reduce((s, l) => s + l.amount_cents, 0);
  if (pricePct !== 100 && typeRule) {
    lines.push({
      label: `${CLEAN_TYPE_LABELS[job.clean_type]} (x${(pricePct / 100).toFixed(2).replace(/0$/, '')})`,
      amount_cents: percentOf(roomsCents, pricePct) - roomsCents,
    });
  }
  const cleaningCents = percentOf(roomsCents, pricePct);
  const addOns = addOnLines(job, list, unpriced);
  lines.push(...addOns.lines);
  if (job.pets) lines.push({ label: 'Pets in the home', amount_cents: list.pets_fee_cents });

  const fullCents = cleaningCents + addOns.cents + (job.pets ? list.pets_fee_cents : 0);
  const discountPct = job.frequency === 'once' ? 0 : (list.frequency_discount_pct[job.frequency] ?? 0);
  const discountCents = percentOf(cleaningCents, discountPct);
  if (discountPct > 0 && list.first_visit_discounted) {
    lines.push({ label: `${FREQUENCY_LABELS[job.frequency]} discount (${discountPct}% off the cleaning)`, amount_cents: -discountCents });
  }
  const beforeMinimum = lines.reduce((s, l) => s + l.amount_cents, 0);
  const minimumApplied = beforeMinimum < list.minimum_cents;
  if (minimumApplied) lines.push({ label: `Minimum charge of ${formatUsd(list.minimum_cents)}`, amount_cents: list.minimum_cents - beforeMinimum });
  const { laborHours, crew, onSite } = hoursFor(job, list, { hoursPct: typeRule?.hours_pct ?? 100, overSqft: rooms.overSqft, addOnMinutes: addOns.minutes });
  const recurring =
    job.frequency === 'once'
      ? null
      : {
          frequency: job.frequency,
          discount_pct: discountPct,
          visit_total_cents: Math.max(fullCents - discountCents, list.minimum_cents),
          first_visit_discounted: list.first_visit_discounted || discountPct === 0,
        };
  const quote: Omit<Quote, 'summary'> = {
    job,
    total_cents: Math.max(beforeMinimum, list.minimum_cents),
    line_items: lines,
    estimated_hours: onSite,
    labor_hours: Math.round(laborHours * 100) / 100,
    crew_size: crew,
    duration_minutes: Math.round(onSite * 60),
    recurring,
    minimum_applied: minimumApplied,
    unpriced,
  };
  return { ...quote, summary: summarize(quote) };
}

function hoursText(hours: number): string {
  const h = Math.floor(hours);
  const m = Math.round((hours - h) * 60);
  if (h && m) return `${h} h ${m} min`;
  if (h || m) return h ? `${h} h` : `${m} min`;
  return '0 min';
}

function summarize(q: Omit<Quote, 'summary'>): string {
  const { job } = q;
  const what = `${CLEAN_TYPE_LABELS[job.clean_type]}, ${bedLabel(job.bedrooms)}, ${bathLabel(job.bathrooms)}`;
  let text = `${what}: ${formatUsd(q.total_cents)}, about ${hoursText(q.estimated_hours)} on site with a crew of ${q.crew_size}.`;
  if (q.recurring && q.recurring.discount_pct > 0) {
    text += q.recurring.first_visit_discounted
      ? ` ${FREQUENCY_LABELS[q.recurring.frequency]} visits are ${formatUsd(q.recurring.visit_total_cents)} each, the first one included.`
      : ` The first visit is at the full price; after that ${FREQUENCY_LABELS[q.recurring.frequency].toLowerCase()} visits are ${formatUsd(q.recurring.visit_total_cents)} each.`;
  }
  if (q.unpriced.length > 0) text += ` Not priced (not offered): ${q.unpriced.join(', ')}.`;
  return text;
}

/** The refusal quote_job, open_times and book_* give for a job the business does not offer. */
export function requireFirmQuote(job: Job, list: PriceList): Quote {
  const quote = priceJob(job, list);
  if (quote.unpriced.length === 0) return quote;
  const addOns = addOnsOfferedBy([list], job.add_ons);
  throw jobNotOffered({
    cleanType: list.clean_types[job.clean_type] ? undefined : { asked: job.clean_type, offered: offeredCleanTypes(list) },
    addOns: addOns.missing.length > 0 ? addOns : undefined,
  });
}

/**
 * find_cleaners' refusal of an add-on that no cleaner serving the ZIP offers (judged as
 * requireFirmQuote judges one business's): nobody could price it. With nobody serving the
 * ZIP there is nothing to judge by, and the answer says so instead.
 */
export function requireAddOnsOffered(job: Job, lists: readonly PriceList[], zip: string): void {
  if (lists.length === 0) return;
  // What is offered is named only in a refusal: a search of 200 lists need not gather it otherwise.
  if (job.add_ons.every((name) => lists.some((list) => addOnOf(list, name)))) return;
  const addOns = addOnsOfferedBy(lists, job.add_ons);
  if (addOns.missing.length > 0) throw jobNotOffered({ addOns, zip });
}

/** A quote as responses show it: USD numbers, line items, hours and what the first visit costs. */
export function presentQuote(q: Quote): Static<typeof quoteSchema> {
  return {
    currency: 'USD',
    total: toUsd(q.total_cents),
    line_items: q.line_items.map((l) => ({ label: l.label, amount: toUsd(l.amount_cents) })),
    estimated_hours: q.estimated_hours,
    crew_size: q.crew_size,
    duration_minutes: q.duration_minutes,
    minimum_applied: q.minimum_applied,
    recurring: q.recurring && {
      frequency: q.recurring.frequency,
      discount_pct: q.recurring.discount_pct,
      visit_total: toUsd(q.recurring.visit_total_cents),
      first_visit: q.recurring.first_visit_discounted ? 'discounted' : 'full_price',
    },
    job: q.job,
    summary: q.summary,
  };
}
