import { InvalidInputError } from './errors';
import { isValidTimeZone } from './time';

export const MAX_SERVICE_ZIP_COUNT = 200;

/** A business name as stored: trimmed, 1 to 100 characters. */
export function checkBusinessName(name: string, field = 'name'): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100) throw new InvalidInputError(`${field} must be 1 to 100 characters.`);
  return trimmed;
}

/** Service ZIPs as stored: 1 to 200 five-digit ZIPs, each once, in the order given. */
export function checkServiceZips(zips: readonly string[], field = 'service_zips'): string[] {
  const bad = zips.filter((z) => !/^\d{5}$/.test(z));
  if (bad.length > 0) throw new InvalidInputError(`${field} must be exactly 5 digits each; not: ${bad.slice(0, 10).join(', ')}.`);
  const unique = [...new Set(zips)];
  if (unique.length === 0) throw new InvalidInputError(`${field}: give at least one service ZIP.`);
  if (unique.length > MAX_SERVICE_ZIP_COUNT) throw new InvalidInputError(`${field} may hold at most ${MAX_SERVICE_ZIP_COUNT} ZIPs; got ${unique.length}.`);
  return unique;
}

export function checkTimeZone(zone: string, field = 'timezone'): string {
  if (!isValidTimeZone(zone)) throw new InvalidInputError(`${field} "${zone}" is not an IANA time zone such as America/New_York.`);
  return zone;
}

/** Checks a new business's name, time zone and service ZIPs before it is created. */
export function checkNewPro(input: { name: string; timezone: string; service_zips: string[] }): void {
  checkBusinessName(input.name);
  checkTimeZone(input.timezone);
  checkServiceZips(input.service_zips);
}
