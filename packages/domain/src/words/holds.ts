import { InvalidInputError, NotFoundError } from '../errors';

/** Everything a caller reads about holds: taking, booking with and releasing one. */

/** Why a hold can no longer be booked with. */
export type HoldGone = 'expired' | 'released' | 'used';

export const noHold = (id: string) => new NotFoundError(`No hold with id ${id} for this caller: a hold is booked with or released only by whoever took it.`);

const GONE: Record<HoldGone, string> = {
  expired: 'has expired',
  released: 'was released',
  used: 'was already used to book',
};

/** A hold that cannot be booked with any more, with the nearest open times for the same job. */
export const holdGone = (id: string, why: HoldGone, nearest: string[]) =>
  new InvalidInputError(
    `Hold ${id} ${GONE[why]}; nothing was booked. ${nearest.length ? `The nearest open times for this job: ${nearest.join('; ')}.` : 'There is no open time within a day of it; ask for other days.'} Take a new hold on the time the user picks.`,
  );

/** A call whose field differs from what the hold keeps. */
export const holdIsFor = (field: string, held: string) =>
  new InvalidInputError(`${field} does not match the hold, which keeps ${held}. Send the held ${field}, or book without hold_id.`);

/** The shared public key names no one: its holds belong to the user the X-User-* headers name. */
export const holdNeedsUser = () =>
  new InvalidInputError('With the shared public key, send X-User-Email or X-User-Phone to take a hold: the hold is that user’s.');

/** What a customer's assistant tells its user about a hold. */
export const heldForYouMessage = (label: string, until: string) =>
  `${label} is held for you until ${until}. Confirm once, then book with this hold_id; release it if the user declines.`;

/** What a business's assistant is told about a time pencilled in. */
export const pencilledInMessage = (h: { label: string; crewName: string; until: string; leadName: string | null }) =>
  `${h.label} (${h.crewName}) is pencilled in${h.leadName ? ` for ${h.leadName}` : ''} until ${h.until}. Book it with book_job and this hold_id, or release it.`;

/** What release_hold says of the hold it was asked to release. */
export const holdReleasedMessage = (label: string, state: 'released' | HoldGone) =>
  state === 'used' ? `The hold on ${label} was already used to book; the booking stands.` : `${label} is free again; the hold is released.`;
