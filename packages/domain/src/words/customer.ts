import { InvalidInputError } from '../errors';

/** Refusals of a customer's details for a booking (phone and email are input.ts's). */

export const customerNameBlank = () => new InvalidInputError('customer_name must not be blank.');
export const addressTooShort = () => new InvalidInputError('address must be at least 3 characters long (not counting spaces).');
export const customerContactMissing = () => new InvalidInputError('Give at least one of customer_phone or customer_email.');

/** On the book host, where the X-User-* headers may stand in for the fields. */
export const customerNameMissing = () => new InvalidInputError('customer_name is required (or send the X-User-Name header).');
export const customerReachMissing = () =>
  new InvalidInputError('Give customer_phone or customer_email (or send X-User-Phone or X-User-Email) so the cleaner can reach the customer.');
