import { InvalidInputError } from './errors';
import { customerNameMissing, customerReachMissing } from './words/bookings';

/** An email address as the contract takes it: something@somewhere.tld, no spaces. */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

/** A phone number: digits and the usual separators, at least 7 digits. */
export function isPhone(value: string): boolean {
  return value.replace(/\D/g, '').length >= 7 && /^[0-9+().\-\s x]+$/i.test(value);
}

/** Trims customer details and checks what a schema cannot: not blank, a plausible phone and email. */
export function customerDetails(input: { customer_name: string; customer_phone?: string; customer_email?: string; address: string; notes?: string }) {
  const name = input.customer_name.trim();
  const phone = input.customer_phone?.trim() || null;
  const email = input.customer_email?.trim() || null;
  const address = input.address.trim();
  if (!name) throw new InvalidInputError('customer_name must not be blank.');
  if (address.length < 3) throw new InvalidInputError('address must be at least 3 characters long (not counting spaces).');
  if (phone !== null && !isPhone(phone)) {
    throw new InvalidInputError(`customer_phone "${phone}" is not a phone number (digits, spaces, + ( ) - allowed; at least 7 digits).`);
  }
  if (email !== null && !isEmail(email)) {
    throw new InvalidInputError(`customer_email "${email}" is not an email address.`);
  }
  if (!phone && !email) throw new InvalidInputError('Give at least one of customer_phone or customer_email.');
  return { name, phone, email, address, notes: input.notes?.trim() || null };
}

/** An email address as it is stored: trimmed, lower case; refused if it is not one. */
export function normalizeEmail(email: string, field = 'email'): string {
  const e = email.trim().toLowerCase();
  if (!isEmail(e) || e.length > 200) throw new InvalidInputError(`${field} "${email}" is not an email address.`);
  return e;
}

/** What an assistant knows of its user besides the fields it sent (the book host's X-User-* headers). */
export interface KnownUser {
  name: string | null;
  email: string | null;
  phone: string | null;
}

/**
 * A customer's details for a booking on the book host: each field as given, else what the
 * assistant said of its user, else (email) the verified account's address; then checked as
 * customerDetails checks them. Refused, naming what is missing, without a name or a way to reach them.
 */
export function customerContact(
  input: { customer_name?: string; customer_phone?: string; customer_email?: string; address: string; notes?: string },
  user: KnownUser,
  accountEmail: string | null,
) {
  const name = input.customer_name ?? user.name;
  const phone = input.customer_phone ?? user.phone ?? undefined;
  const email = input.customer_email ?? user.email ?? accountEmail ?? undefined;
  if (!name) throw customerNameMissing();
  if (!phone && !email) throw customerReachMissing();
  return customerDetails({ customer_name: name, customer_phone: phone, customer_email: email, address: input.address, notes: input.notes });
}

/** Which of the customer's details the cleaner now has, in the words the answer uses. */
export const sharedDetails = (c: { phone: string | null; email: string | null }) =>
  ['name', c.phone ? 'phone' : null, c.email ? 'email' : null, 'address'].filter((f): f is string => f !== null);
