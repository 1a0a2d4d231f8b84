import { InvalidInputError } from './errors';
import { isValidTimeZone } from './time';

/** Checks a new business's name, time zone and service ZIPs before it is created. */
export function checkNewPro(input: { name: string; timezone: string; service_zips: string[] }): void {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 100) throw new InvalidInputError('name must be 1 to 100 characters.');
  if (!isValidTimeZone(input.timezone)) {
    throw new InvalidInputError(`timezone "${input.timezone}" is not an IANA time zone such as America/New_York.`);
  }
  const bad = input.service_zips.filter((z) => !/^\d{5}$/.test(z));
  if (bad.length > 0) throw new InvalidInputError(`service ZIPs must be exactly 5 digits; not: ${bad.join(', ')}.`);
  if (input.service_zips.length === 0) throw new InvalidInputError('give at least one service ZIP.');
}
