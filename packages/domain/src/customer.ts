import { InvalidInputError } from './errors';

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
