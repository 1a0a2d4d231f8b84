import type { Job } from './job';
import { normalizeEmail } from './customer';
import type { HoldGone } from './words/holds';

/** How long a hold lasts, by host: a customer's assistant confirms in minutes, a business waits on its lead for up to two days. */
export const HOLD_MINUTES = {
  book: { min: 1, max: 15, default: 10 },
  pro: { min: 1, max: 2880, default: 60 },
} as const;

/** Who a hold belongs to: the credential, and behind the shared public key, the user's email or phone. */
export interface HoldOwner {
  credential: string;
  email: string | null;
  phone: string | null;
}

const digits = (phone: string | null) => (phone === null ? null : phone.replace(/\D/g, ''));

/** A hold's owner as stored: the email in lower case, the phone as its digits. */
export function holdOwner(credential: string, user: { email: string | null; phone: string | null } = { email: null, phone: null }): HoldOwner {
  return { credential, email: user.email === null ? null : normalizeEmail(user.email), phone: digits(user.phone) };
}

/**
 * Whether `caller` may book or release a hold `owner` took: the same credential, and for a
 * credential many share (the public key), the same email or the same phone as well.
 */
export function ownsHold(owner: HoldOwner, caller: HoldOwner, shared: boolean): boolean {
  if (owner.credential !== caller.credential) return false;
  if (!shared) return true;
  const same = (a: string | null, b: string | null) => a !== null && a !== '' && a === b;
  return same(owner.email, caller.email) || same(owner.phone, digits(caller.phone));
}

/** Whether two normalized jobs are the same job (add-ons in any order). */
export function sameJob(a: Job, b: Job): boolean {
  const addOns = (j: Job) => [...j.add_ons].sort().join('\n');
  return (
    a.bedrooms === b.bedrooms &&
    a.bathrooms === b.bathrooms &&
    a.clean_type === b.clean_type &&
    a.sqft === b.sqft &&
    a.frequency === b.frequency &&
    a.pets === b.pets &&
    addOns(a) === addOns(b)
  );
}

/** Why a hold can no longer be booked with, or null while it lives (`live` as the database's clock judged it). */
export const holdGoneWhy = (h: { used_at: Date | null; released_at: Date | null; live: boolean; starts_at: Date }, now: Date): HoldGone | null =>
  h.used_at ? 'used' : h.released_at ? 'released' : !h.live || h.starts_at <= now ? 'expired' : null;
