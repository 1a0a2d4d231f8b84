import { InvalidInputError } from '../errors';

/** Everything a business reads when a change to its profile, prices or hours is refused. */

export const nothingToChange = () => new InvalidInputError('Give at least one field to change (see my_business for the current values).');

export const businessNameLength = (field: string) => new InvalidInputError(`${field} must be 1 to 100 characters.`);
/** Names at most ten of the bad ZIPs: a pasted list of hundreds would drown the sentence. */
export const zipsNotFiveDigits = (field: string, bad: readonly string[]) =>
  new InvalidInputError(`${field} must be exactly 5 digits each; not: ${bad.slice(0, 10).join(', ')}.`);
export const noServiceZip = (field: string) => new InvalidInputError(`${field}: give at least one service ZIP.`);
export const tooManyZips = (field: string, max: number, got: number) => new InvalidInputError(`${field} may hold at most ${max} ZIPs; got ${got}.`);
export const notATimeZone = (field: string, zone: string) => new InvalidInputError(`${field} "${zone}" is not an IANA time zone such as America/New_York.`);
export const notAWebsite = (field: string, value: string) => new InvalidInputError(`${field} "${value}" is not a web address such as https://example.com.`);

export const notWholeCents = (field: string, usd: number) => new InvalidInputError(`${field} must be in whole cents (at most 2 decimals); got ${usd}.`);
/** `halfUsd` is what per_half_bathroom must be: half of per_bathroom. */
export const halfBathIsHalf = (halfUsd: number) =>
  new InvalidInputError(`prices.per_half_bathroom is always half of per_bathroom (${halfUsd} here); change per_bathroom instead.`);
export const multiplierDecimals = (cleanType: string, given: number) =>
  new InvalidInputError(`prices.clean_types.${cleanType}.price_multiplier must have at most 2 decimals; got ${given}.`);
/** The usual size for `bedrooms` is below the one for a bedroom fewer. */
export const usualSqftFalls = (bedrooms: number, sqft: number, fewerSqft: number) =>
  new InvalidInputError(
    `prices.larger_home_surcharge.usual_sqft_by_bedrooms must never fall: ${bedrooms} bedrooms (${sqft}) is below ${bedrooms - 1} (${fewerSqft}).`,
  );
export const addOnListedTwice = (index: number, name: string) =>
  new InvalidInputError(`add_ons[${index}].name "${name}" is listed twice; give each add-on once.`);
export const addOnLabelBlank = (index: number) => new InvalidInputError(`add_ons[${index}].label must not be blank.`);

type Window = { start: string; end: string };
export const windowEndsBeforeStart = (field: string, window: string) => new InvalidInputError(`${field}: "${window}" must end after it starts.`);
export const windowsOverlap = (field: string, a: Window, b: Window) =>
  new InvalidInputError(`${field}: "${a.start}-${a.end}" and "${b.start}-${b.end}" overlap; give windows that do not.`);

export const noticeNotWholeMinutes = (hours: number) =>
  new InvalidInputError(`min_notice_hours must be a whole number of minutes (such as 1.5 or 0.25); got ${hours}.`);
