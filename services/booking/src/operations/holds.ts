import {
  HOLD_MINUTES,
  answer,
  cleanerContactSchema,
  fields,
  heldForYouMessage,
  holdNeedsUser,
  holdOwner,
  holdIdSchema,
  holdSchema,
  releasedHoldSchema,
  integer,
  jobFieldSchemas,
  singleLine,
  str,
} from '@frontdesk/domain';
import { heldUntil, holdForCustomer, presentHold, presentRelease, releaseHold, type HoldClaim } from '@frontdesk/use-cases';
import { REMOVES, WRITES } from '@frontdesk/http';
import type { Customer } from '../auth';
import type { AppContext } from '../context';
import { cleanerIdSchema } from './cleaners';
import { defineOperation } from './define';

/** The owner credential of a booking page visitor's holds: that browser's visit's alone. */
export const visitorCredential = (visit: string) => `page:${visit}`;
export const visitorHoldClaim = (visit: string, id: string): HoldClaim => ({ id, owner: holdOwner(visitorCredential(visit)), shared: false });

/**
 * Whose a hold is: the credential, and behind the shared public key (everyone's), the user the
 * X-User-Email or X-User-Phone header names; on the booking page, the browser's visit.
 */
export function holdClaim(c: Customer, id: string): HoldClaim {
  if (c.visit) return visitorHoldClaim(c.visit, id);
  const shared = c.credential === 'public';
  return { id, owner: holdOwner(shared ? 'public' : `${c.credential}:${c.email}`, c.user), shared };
}

export const holdTime = (ctx: AppContext) =>
  defineOperation({
    name: 'hold_time',
    tag: 'bookings',
    title: 'Hold a time while the user confirms',
    description:
      'Holds a start from available_times or find_cleaners for a few minutes at its firm total: no one else can take it meanwhile. Then confirm once with the user and book_cleaning with the hold_id; release_hold if they decline. With the shared key, send X-User-Email or X-User-Phone.',
    method: 'POST',
    instruction: 'Before confirming a booking, hold_time the start; book it with book_cleaning and the hold_id, or release_hold when the user declines.',
    input: fields(
      {
        cleaner_id: cleanerIdSchema,
        start: singleLine({ minLength: 10, maxLength: 40, description: 'From the open times, unchanged.' }),
        ...jobFieldSchemas,
        minutes: integer({ minimum: HOLD_MINUTES.book.min, maximum: HOLD_MINUTES.book.max, description: `Default ${HOLD_MINUTES.book.default}.` }),
      },
      ['cleaner_id', 'start', 'bedrooms', 'bathrooms'],
    ),
    output: answer({ ...holdSchema.properties, cleaner: cleanerContactSchema, message: str }),
    ...WRITES,
    async handler(input, { principal, now }) {
      const claim = holdClaim(principal, '');
      if (claim.shared && claim.owner.email === null && claim.owner.phone === null) throw holdNeedsUser();
      const { hold, pro, crewName } = await holdForCustomer(ctx.db, claim.owner, input, now);
      const shown = presentHold(hold, { timezone: pro.timezone, crewName });
      return {
        ...shown,
        cleaner: { cleaner_id: pro.id, name: pro.name, phone: pro.phone, email: pro.email, website: pro.website },
        message: heldForYouMessage(shown.label, heldUntil(hold, pro.timezone)),
      };
    },
  });

export const releaseHoldOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'release_hold',
    tag: 'bookings',
    title: 'Release a held time',
    description: 'Frees a time held with hold_time when the user declines; releasing again changes nothing.',
    method: 'POST',
    input: fields({ hold_id: holdIdSchema }, ['hold_id']),
    output: releasedHoldSchema,
    ...REMOVES,
    idempotent: true,
    async handler(input, { principal }) {
      return presentRelease(await releaseHold(ctx.db, holdClaim(principal, input.hold_id)));
    },
  });
