import { DEFAULT_SCHEDULE_SETTINGS, DEFAULT_WEEKLY_HOURS, type WeeklyHours } from './availability';
import { DEFAULT_PRICE_LIST, type PriceList } from './price-list';
import { isValidTimeZone } from './time';
import { isSingleLine } from './plain-text';
import { notServedZip } from './words/bookings';
import { notOneLine } from './words/input';
import { businessNameLength, noServiceZip, notATimeZone, tooManyZips, zipsNotFiveDigits } from './words/settings';

export const MAX_SERVICE_ZIP_COUNT = 200;

/** A business's public booking page on the booking host (its /book/<pro id> page). */
export const bookingPageAddress = (bookingUrl: string, proId: string) => `${bookingUrl}/book/${proId}`;

/** A business name as stored: trimmed, 1 to 100 characters, one line. */
export function checkBusinessName(name: string, field = 'name'): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100) throw businessNameLength(field);
  if (!isSingleLine(trimmed)) throw notOneLine(field);
  return trimmed;
}

/** Service ZIPs as stored: 1 to 200 five-digit ZIPs, each once, in the order given. */
export function checkServiceZips(zips: readonly string[], field = 'service_zips'): string[] {
  const bad = zips.filter((z) => !/^\d{5}$/.test(z));
  if (bad.length > 0) throw zipsNotFiveDigits(field, bad);
  const unique = [...new Set(zips)];
  if (unique.length === 0) throw noServiceZip(field);
  if (unique.length > MAX_SERVICE_ZIP_COUNT) throw tooManyZips(field, MAX_SERVICE_ZIP_COUNT, unique.length);
  return unique;
}

export function checkTimeZone(zone: string, field = 'timezone'): string {
  if (!isValidTimeZone(zone)) throw notATimeZone(field, zone);
  return zone;
}

/** Checks a new business's name, time zone and service ZIPs before it is created. */
export function checkNewPro(input: { name: string; timezone: string; service_zips: string[] }): void {
  checkBusinessName(input.name);
  checkTimeZone(input.timezone);
  checkServiceZips(input.service_zips);
}

/** What a new business is given; everything else starts at the defaults. */
export interface NewBusinessInput {
  name: string;
  timezone: string;
  service_zips: string[];
  phone?: string | null;
  email?: string | null;
  website?: string | null;
  /** The verified address that signs the business up; one business per address. */
  owner_email?: string | null;
  price_list?: PriceList;
  weekly_hours?: WeeklyHours;
  travel_buffer_minutes?: number;
  slot_step_minutes?: number;
  min_notice_minutes?: number;
}

/** A new business as it is stored: checked, its name trimmed, each ZIP once, the default prices and hours where none were given. */
export function newBusiness(input: NewBusinessInput) {
  checkNewPro(input);
  return {
    name: input.name.trim(),
    timezone: input.timezone,
    phone: input.phone ?? null,
    email: input.email ?? null,
    website: input.website ?? null,
    owner_email: input.owner_email ?? null,
    service_zips: [...new Set(input.service_zips)],
    price_list: input.price_list ?? DEFAULT_PRICE_LIST,
    weekly_hours: input.weekly_hours ?? DEFAULT_WEEKLY_HOURS,
    travel_buffer_minutes: input.travel_buffer_minutes ?? DEFAULT_SCHEDULE_SETTINGS.travel_buffer_minutes,
    slot_step_minutes: input.slot_step_minutes ?? DEFAULT_SCHEDULE_SETTINGS.slot_step_minutes,
    min_notice_minutes: input.min_notice_minutes ?? DEFAULT_SCHEDULE_SETTINGS.min_notice_minutes,
  };
}
export type NewBusiness = ReturnType<typeof newBusiness>;

/** Refuses a job at a ZIP the business does not serve. */
export function requireServedZip(pro: { name: string; service_zips: readonly string[] }, zip: string): void {
  if (!pro.service_zips.includes(zip)) throw notServedZip(pro.name, zip);
}
