import { addressTooShort, customerContactMissing, customerNameBlank, customerNameMissing, customerReachMissing } from './words/customer';
import { notAPhone, notAnEmail } from './words/input';

/** An email address as the contract takes it: something@somewhere.tld, no spaces, no control or format characters. */
export function isEmail(value: string): boolean {
  return /^[^\s@\p{Cc}\p{Cf}\p{Cs}]+@[^\s@\p{Cc}\p{Cf}\p{Cs}]+\.[^\s@\p{Cc}\p{Cf}\p{Cs}]+$/u.test(value);
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
  if (!name) throw customerNameBlank();
  if (address.length < 3) throw addressTooShort();
  if (phone !== null && !isPhone(phone)) throw notAPhone('customer_phone', phone);
  if (email !== null && !isEmail(email)) throw notAnEmail('customer_email', email);
  if (!phone && !email) throw customerContactMissing();
  return { name, phone, email, address, notes: input.notes?.trim() || null };
}

/** An email address as it is stored: trimmed, lower case; refused if it is not one. */
export function normalizeEmail(email: string, field = 'email'): string {
  const e = email.trim().toLowerCase();
  if (!isEmail(e) || e.length > 200) throw notAnEmail(field, email);
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
