import { isoWeekday, localDate, minutesOfDay, wallTimeOrNextInstant } from './time';
import { DEFAULT_PRICE_LIST, type AddOn, type CleanTypeRule, type PriceList } from './price-list';
import { CLEAN_TYPES, FREQUENCIES, type CleanType, type Frequency } from './job';
import { HHMM_PATTERN, ZIP_PATTERN } from './contract-schemas';
import { isSingleLine, singleLine } from './plain-text';
import { boolean, fields, integer, listOf, nullable, number, oneOf, text, type Static, type TSchema } from './schema';
import { notAPhone, notAnEmail, notOneLine } from './words/input';
import {
  addOnLabelBlank,
  addOnListedTwice,
  halfBathIsHalf,
  multiplierDecimals,
  notAWebsite,
  notWholeCents,
  nothingToChange,
  noticeNotWholeMinutes,
  usualSqftFalls,
  windowEndsBeforeStart,
  windowsOverlap,
} from './words/settings';
import { isEmail, isPhone } from './customer';
import type { ScheduleRules, WeeklyHours, WorkingWindow } from './availability';
import { toUsd, type Cents } from './money';
import { MAX_SERVICE_ZIP_COUNT, checkBusinessName, checkServiceZips } from './pro';
import { checkReminderHours, checkReviewLink, customerMessageSettingsSchemas, type CustomerMessageSettings } from './customer-messages';

/**
 * A business's own settings as update_business takes them: the shapes my_business shows,
 * so an assistant can read the profile, change a part and write that part back. Bounds a
 * JSON Schema can say live in the schemas (the validator names the field); what it cannot
 * say (whole cents, windows in order, a rising size table) is checked by applySettings.
 */
/** What a host's request for turnovers (request_turnovers on the book host) does with each clean. */
export const HOST_TURNOVERS = ['propose', 'book'] as const;

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const MAX_ADD_ONS = 30;
export const MAX_WINDOWS_PER_DAY = 6;
export const MAX_USD = 10_000;

const HHMM_OR_MIDNIGHT = `(${HHMM_PATTERN.slice(1, -1)}|24:00)`;
export const WINDOW_PATTERN = `^${HHMM_PATTERN.slice(1, -1)}-${HHMM_OR_MIDNIGHT}$`;
export const ADD_ON_NAME_PATTERN = '^[a-z][a-z0-9_]{0,39}$';

const usd = (description?: string) => number({ minimum: 0, maximum: MAX_USD, ...(description ? { description } : {}) });
const FREQUENCY_NAMES = FREQUENCIES.filter((f): f is Exclude<Frequency, 'once'> => f !== 'once');

export const nameSchema = singleLine({ minLength: 1, maxLength: 100, description: 'Shown to customers.' });
export const phoneSchema = nullable(singleLine({ maxLength: 30, description: 'null removes it.' }));
export const websiteSchema = nullable(singleLine({ maxLength: 200, description: 'http(s)://…; null removes it.' }));
export const serviceZipsSchema = listOf(text({ pattern: ZIP_PATTERN }), {
  minItems: 1,
  maxItems: MAX_SERVICE_ZIP_COUNT,
  description: 'Every 5-digit ZIP served: the whole list.',
});
export const timezoneSchema = singleLine({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. America/New_York.' });

const windowsSchema = listOf(text({ pattern: WINDOW_PATTERN }), { maxItems: MAX_WINDOWS_PER_DAY });

/** A property per key, each from `schemaOf` (a weekday's windows, a clean type's rule). */
function eachOf<const K extends readonly string[], S extends TSchema>(keys: K, schemaOf: (key: K[number]) => S): Record<K[number], S> {
  return Object.fromEntries(keys.map((k) => [k, schemaOf(k)])) as Record<K[number], S>;
}

/** Working hours as update_business and update_crew take them: windows per weekday, days left out keep theirs. */
export const workingHoursSchema = fields(
  eachOf(WEEKDAYS, () => windowsSchema),
  [],
  { description: 'Per weekday, windows "HH:MM-HH:MM", [] for closed; days left out keep theirs.' },
);

export const settingsSchemas = {
  name: nameSchema,
  phone: phoneSchema,
  email: nullable(singleLine({ maxLength: 200, description: 'null removes it.' })),
  website: websiteSchema,
  service_zips: serviceZipsSchema,
  working_hours: workingHoursSchema,
  prices: fields(
    {
      currency: oneOf(['USD']),
      base: usd(),
      per_bedroom: usd(),
      per_bathroom: usd('A half bath costs half.'),
      per_half_bathroom: usd('Always half of per_bathroom.'),
      minimum: usd('Lowest job price.'),
      clean_types: fields(
        eachOf(CLEAN_TYPES, () => fields({ price_multiplier: number({ minimum: 0.5, maximum: 5 }) }, ['price_multiplier'])),
        [],
        { minProperties: 1, description: 'Every type offered (two decimals at most).' },
      ),
      frequency_discounts_pct: fields(
        eachOf(FREQUENCY_NAMES as readonly Exclude<Frequency, 'once'>[], () => number({ minimum: 0, maximum: 90 })),
        [],
        { description: 'Percent off.' },
      ),
      first_visit: oneOf(['discounted', 'full_price'], { description: "A plan's first visit." }),
      larger_home_surcharge: fields({
        per_100_sqft_over_usual: usd(),
        usual_sqft_by_bedrooms: listOf(integer({ minimum: 200, maximum: 15000 }), {
          minItems: 11,
          maxItems: 11,
          description: 'For 0 to 10 bedrooms, never falling.',
        }),
      }),
      pets_fee: usd(),
      crew_size: integer({ minimum: 1, maximum: 10, description: 'Cleaners per job.' }),
    },
    [],
    { description: 'USD amounts up to 10,000, multipliers 0.5 to 5; parts left out keep theirs.' },
  ),
  add_ons: listOf(
    fields(
      {
        name: text({ pattern: ADD_ON_NAME_PATTERN, description: 'a-z, 0-9 and _.' }),
        label: singleLine({ minLength: 1, maxLength: 60 }),
        price: usd(),
        minutes: integer({ minimum: 0, maximum: 480 }),
      },
      ['name', 'label', 'price', 'minutes'],
    ),
    { maxItems: MAX_ADD_ONS, description: 'The whole list.' },
  ),
  travel_buffer_minutes: integer({ minimum: 0, maximum: 240, description: 'Kept free after each job.' }),
  slot_step_minutes: integer({ minimum: 5, maximum: 240, multipleOf: 5, description: 'A multiple of 5.' }),
  min_notice_hours: number({ minimum: 0, maximum: 336, description: 'Notice before a job; whole minutes.' }),
  email_me_customer_changes: boolean({ description: 'Email the owner when a customer books, moves or cancels.' }),
  ...customerMessageSettingsSchemas,
  owner_agenda: nullable(text({ pattern: HHMM_PATTERN, description: "Local HH:MM to mail the day's jobs; null: off." })),
  host_turnovers: oneOf(HOST_TURNOVERS, { description: "A host's request_turnovers on the book host: propose (default; you accept each clean) or book." }),
};

/** update_business's input, also what `pnpm cli pro set` checks its flags against. */
export const settingsChangeSchema = fields(settingsSchemas);

/** A change of prices, as update_business takes it. */
export type PricesChange = NonNullable<SettingsChange['prices']>;

/** A change of settings, as update_business takes it. */
export type SettingsChange = Static<typeof settingsChangeSchema>;

/** What of a pro its settings change: the columns update_business writes. */
export interface BusinessSettings extends CustomerMessageSettings {
  name: string;
  phone: string | null;
  email: string | null;
  website: string | null;
  service_zips: string[];
  price_list: PriceList;
  weekly_hours: WeeklyHours;
  travel_buffer_minutes: number;
  slot_step_minutes: number;
  min_notice_minutes: number;
  email_me_customer_changes: boolean;
  owner_agenda: string | null;
  host_turnovers: (typeof HOST_TURNOVERS)[number];
}

/** USD with at most two decimals, as cents; anything finer is refused rather than rounded. */
export function wholeCents(usdValue: number, field: string): Cents {
  const cents = Math.round(usdValue * 100);
  if (Math.abs(usdValue * 100 - cents) > 1e-6) throw notWholeCents(field, usdValue);
  return cents;
}

export function checkPhone(phone: string | null | undefined, field = 'phone'): string | null {
  const p = phone?.trim() || null;
  if (p !== null && !isPhone(p)) throw notAPhone(field, p);
  return p;
}

export function checkWebsite(website: string | null | undefined, field = 'website'): string | null {
  const w = website?.trim() || null;
  if (w === null) return null;
  // A URL reader drops tabs and line breaks without a word; the address as stored keeps them.
  if (!isSingleLine(w)) throw notOneLine(field);
  let url: URL | null = null;
  try {
    url = new URL(w);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname.includes('.')) throw notAWebsite(field, w);
  return w;
}

function checkContactEmail(email: string | null | undefined): string | null {
  const e = email?.trim() || null;
  if (e !== null && !isEmail(e)) throw notAnEmail('email', e);
  return e;
}

/** One weekday's windows, in order; refuses an end before its start and windows that overlap. */
export function parseWindows(windows: readonly string[], field: string): WorkingWindow[] {
  const parsed = windows.map((w) => {
    const [start, end] = w.split('-') as [string, string];
    if (minutesOfDay(end) <= minutesOfDay(start)) throw windowEndsBeforeStart(field, w);
    return { start, end };
  });
  parsed.sort((a, b) => minutesOfDay(a.start) - minutesOfDay(b.start));
  for (let i = 1; i < parsed.length; i++) {
    if (minutesOfDay(parsed[i]!.start) < minutesOfDay(parsed[i - 1]!.end)) throw windowsOverlap(field, parsed[i - 1]!, parsed[i]!);
  }
  return parsed;
}

/** Weekly hours as my_business shows them: every weekday by name, windows as "HH:MM-HH:MM". */
export function presentWeeklyHours(hours: WeeklyHours): Record<Weekday, string[]> {
  return Object.fromEntries(WEEKDAYS.map((day, i) => [day, (hours[String(i + 1) as keyof WeeklyHours] ?? []).map((w) => `${w.start}-${w.end}`)])) as Record<
    Weekday,
    string[]
  >;
}

function applyPrices(list: PriceList, change: PricesChange): PriceList {
  const next: PriceList = structuredClone(list);
  const cents = (value: number | undefined, field: string, set: (c: Cents) => void) => {
    if (value !== undefined) set(wholeCents(value, `prices.${field}`));
  };
  cents(change.base, 'base', (c) => (next.base_cents = c));
  cents(change.per_bedroom, 'per_bedroom', (c) => (next.per_bedroom_cents = c));
  cents(change.per_bathroom, 'per_bathroom', (c) => (next.per_bathroom_cents = c));
  cents(change.minimum, 'minimum', (c) => (next.minimum_cents = c));
  cents(change.pets_fee, 'pets_fee', (c) => (next.pets_fee_cents = c));
  if (change.per_half_bathroom !== undefined && Math.abs(change.per_half_bathroom - toUsd(next.per_bathroom_cents / 2)) > 0.005) {
    throw halfBathIsHalf(toUsd(next.per_bathroom_cents / 2));
  }
  if (change.clean_types) {
    const types: Partial<Record<CleanType, CleanTypeRule>> = {};
    for (const type of CLEAN_TYPES) {
      const given = change.clean_types[type];
      if (!given) continue;
      const pct = Math.round(given.price_multiplier * 100);
      if (Math.abs(given.price_multiplier * 100 - pct) > 1e-6) throw multiplierDecimals(type, given.price_multiplier);
      // The time a type takes is not a price: a type offered again keeps its own, a new one the default.
      const hoursPct = list.clean_types[type]?.hours_pct ?? DEFAULT_PRICE_LIST.clean_types[type]?.hours_pct ?? 100;
      types[type] = { price_pct: pct, hours_pct: hoursPct };
    }
    next.clean_types = types;
  }
  for (const [frequency, pct] of Object.entries(change.frequency_discounts_pct ?? {}) as [Exclude<Frequency, 'once'>, number][]) {
    if (pct === 0) delete next.frequency_discount_pct[frequency];
    else next.frequency_discount_pct[frequency] = pct;
  }
  if (change.first_visit) next.first_visit_discounted = change.first_visit === 'discounted';
  const surcharge = change.larger_home_surcharge;
  if (surcharge) {
    cents(surcharge.per_100_sqft_over_usual, 'larger_home_surcharge.per_100_sqft_over_usual', (c) => (next.sqft.surcharge_cents_per_100 = c));
    const sizes = surcharge.usual_sqft_by_bedrooms;
    if (sizes) {
      const falls = sizes.findIndex((s, i) => i > 0 && s < sizes[i - 1]!);
      if (falls > 0) throw usualSqftFalls(falls, sizes[falls]!, sizes[falls - 1]!);
      next.sqft.usual_max_by_bedrooms = [...sizes];
    }
  }
  if (change.crew_size !== undefined) next.crew_size = change.crew_size;
  return next;
}

function applyAddOns(list: PriceList, addOns: NonNullable<SettingsChange['add_ons']>): PriceList {
  const byName: Record<string, AddOn> = {};
  for (const [i, a] of addOns.entries()) {
    if (Object.hasOwn(byName, a.name)) throw addOnListedTwice(i, a.name);
    const label = a.label.trim();
    if (!label) throw addOnLabelBlank(i);
    byName[a.name] = { label, price_cents: wholeCents(a.price, `add_ons[${i}].price`), minutes: a.minutes };
  }
  return { ...list, add_ons: byName };
}

/** Weekly hours after a change given per weekday (as my_business shows them): weekdays left out keep their windows. */
export function applyWorkingHours(current: WeeklyHours, change: Partial<Record<Weekday, readonly string[]>>, field = 'working_hours'): WeeklyHours {
  const hours: WeeklyHours = { ...current };
  for (const [i, day] of WEEKDAYS.entries()) {
    const given = change[day];
    if (given === undefined) continue;
    const windows = parseWindows(given, `${field}.${day}`);
    const key = String(i + 1) as keyof WeeklyHours;
    if (windows.length) hours[key] = windows;
    else delete hours[key];
  }
  return hours;
}

/**
 * The settings after a change, checked as a whole: every field left out keeps its value.
 * Throws a 400 naming the first field that breaks a rule; nothing is half-applied because
 * nothing is written until this returns.
 */
export function applySettings(current: BusinessSettings, change: SettingsChange): BusinessSettings {
  const fields = Object.keys(change);
  if (fields.length === 0) throw nothingToChange();
  const next: BusinessSettings = { ...current };
  if (change.name !== undefined) next.name = checkBusinessName(change.name);
  if (change.phone !== undefined) next.phone = checkPhone(change.phone);
  if (change.email !== undefined) next.email = checkContactEmail(change.email);
  if (change.website !== undefined) next.website = checkWebsite(change.website);
  if (change.service_zips !== undefined) next.service_zips = checkServiceZips(change.service_zips);
  if (change.working_hours) next.weekly_hours = applyWorkingHours(current.weekly_hours, change.working_hours);
  if (change.prices) next.price_list = applyPrices(next.price_list, change.prices);
  if (change.add_ons) next.price_list = applyAddOns(next.price_list, change.add_ons);
  if (change.travel_buffer_minutes !== undefined) next.travel_buffer_minutes = change.travel_buffer_minutes;
  if (change.slot_step_minutes !== undefined) next.slot_step_minutes = change.slot_step_minutes;
  if (change.min_notice_hours !== undefined) {
    const minutes = Math.round(change.min_notice_hours * 60);
    if (Math.abs(change.min_notice_hours * 60 - minutes) > 1e-6) throw noticeNotWholeMinutes(change.min_notice_hours);
    next.min_notice_minutes = minutes;
  }
  if (change.email_me_customer_changes !== undefined) next.email_me_customer_changes = change.email_me_customer_changes;
  applyMessageSettings(next, change);
  if (change.owner_agenda !== undefined) next.owner_agenda = change.owner_agenda;
  if (change.host_turnovers !== undefined) next.host_turnovers = change.host_turnovers;
  return next;
}

/** The routine customer messages' settings after a change (each left out keeps its value). */
function applyMessageSettings(next: BusinessSettings, change: SettingsChange): void {
  if (change.customer_reminders !== undefined) next.customer_reminder_hours = checkReminderHours(change.customer_reminders);
  if (change.review_request === null) next.review_link = null;
  else if (change.review_request !== undefined) {
    next.review_link = checkReviewLink(change.review_request.link);
    next.review_delay_hours = change.review_request.delay_hours;
  }
}

/**
 * When each routine-message setting was last changed, after a change made at `now`: a
 * setting whose value stayed the same keeps its time, so saving the page again never
 * makes a reminder owed "at once".
 */
export function messageSettingsStamps(
  before: CustomerMessageSettings & { customer_reminders_set_at: Date | null; review_request_set_at: Date | null },
  after: CustomerMessageSettings,
  now: Date,
) {
  const remindersChanged = before.customer_reminder_hours.join(',') !== after.customer_reminder_hours.join(',');
  const reviewChanged = before.review_link !== after.review_link || (after.review_link !== null && before.review_delay_hours !== after.review_delay_hours);
  return {
    customer_reminders_set_at: remindersChanged ? now : before.customer_reminders_set_at,
    review_request_set_at: reviewChanged ? now : before.review_request_set_at,
  };
}

/** Whether a job from start to end lies inside one of its day's working windows. */
export function withinWorkingHours(rules: Pick<ScheduleRules, 'timezone' | 'weekly_hours'>, start: Date, end: Date): boolean {
  const day = localDate(start, rules.timezone);
  const windows = rules.weekly_hours[String(isoWeekday(day)) as keyof WeeklyHours] ?? [];
  return windows.some(
    (w) =>
      start.getTime() >= wallTimeOrNextInstant(day, minutesOfDay(w.start), rules.timezone).getTime() &&
      end.getTime() <= wallTimeOrNextInstant(day, minutesOfDay(w.end), rules.timezone).getTime(),
  );
}
