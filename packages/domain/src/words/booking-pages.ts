import { HOLD_MINUTES } from '../holds';
import { CONFIRMATION_SHOWN_MINUTES, FREE_CANCEL_HOURS } from '../policy';

/**
 * What the customer's pages on the book host say in their own words: the operations' refusals
 * and answers are written for assistants (they name fields and other operations), so a page
 * turns those parts into what a person reads. Each pair is a fragment of a sentence in
 * bookings.ts or customer.ts and what a page shows instead.
 */
/** What the details form says when it has neither a phone number nor an email. */
export const GIVE_CONTACT = 'Give a phone number or an email so the cleaner can reach you.';

const REWORDS: readonly (readonly [RegExp, string])[] = [
  [/^Give (at least one of )?customer_phone or customer_email.*$/, GIVE_CONTACT],
  [/^customer_name is required.*$/, 'Your name is required.'],
  [/ \(or send the X-User-Name header\)/, ''],
  [/^No booking with that manage_token\..*$/, 'No booking matches this link. Check that it was copied whole.'],
  [/^No visit \S+ in the series .*$/, 'That visit is not part of this booking. Open your booking again from its link.'],
  [/\bBooking \S+ \(([^)]+)\)/, 'The cleaning on $1'],
  [/\bBooking \S+ (started|starts)/, 'This cleaning $1'],
  [/; find_cleaners lists the cleaners who do\./, '.'],
  [/ ask open_times for other days\./, ' pick another day.'],
  [/, or send skip_conflicts: true to book the other visits\./, '.'],
  [/, or move this visit alone \(without and_following\)\./, ', or move this visit alone.'],
  [/ together \(and_following\)\./, ' together.'],
  [/; confirm the new price with the customer first\./, '; check the new price and book again.'],
  [/; tell the user\./, '.'],
];

/** An operation's sentence as a customer's page shows it. */
export function inCustomerWords(sentence: string): string {
  return REWORDS.reduce((text, [from, to]) => text.replace(from, to), sentence);
}

/** The free-cancel window, as the manage pages state it. */
export const FREE_CANCEL_TEXT = `Cancelling is free until ${FREE_CANCEL_HOURS} hours before a visit starts; closer than that, the cleaner may charge under their own policy.`;

/** The same rule as a move states it (the move page's and the booking view's confirmations). */
export const MOVE_FREE_TEXT = `Moving is free until ${FREE_CANCEL_HOURS} hours before a visit starts; closer than that, the cleaner may charge under their own policy.`;
/** What a move says of a visit starting within the free window (it still moves). */
export const moveLate = (cleaner: string) =>
  `This visit starts within ${FREE_CANCEL_HOURS} hours: it still moves, but ${cleaner} may charge under their own policy.`;
/** A move keeps the booking's price. */
export const PRICE_STAYS = 'The price stays the same.';
export const PICK_A_NEW_TIME = 'Pick a new time';

/** What a booking confirmation says when this browser is not the one that booked. */
export const CONFIRMATION_ELSEWHERE = `This confirmation is shown only in the browser that made the booking, for ${CONFIRMATION_SHOWN_MINUTES} minutes after booking and until that browser is closed. If you gave an email address, the link to your booking was sent there; open it to see, move or cancel your booking.`;

/** What the search says when the ZIP came without the size of the home. */
export const SEARCH_NEEDS_ROOMS = 'Say how many bedrooms and bathrooms your home has, then search again.';

/** What the search says of the cleaners serving the ZIP who do not offer all that was asked (find_cleaners' not_offered). */
export const notOfferingAll = (names: readonly string[]) => `Also serving this ZIP, but not offering everything you asked for: ${names.join(', ')}.`;

/** What the booking and move pages say about the time a refused form had picked. */
export const timeKept = (label: string) => `The time you picked, ${label}, is still selected below.`;
export const TIME_GONE = 'The time you picked is no longer open: pick another one below.';

/** The booking page's holds: picking a time keeps it for the customer while they give their details. */
export const HOLD_ON_PICK = `Picking a time holds it for you for ${HOLD_MINUTES.book.default} minutes while you give your details: no one else can book it meanwhile.`;
/** What the booking page says under a price, wherever it shows one. */
export const FIRM_PRICE = 'A firm price: everything included, no fees added.';
export const heldOnPage = (label: string, until: string) => `${label} is held for you until ${until}. Give your details below to book it.`;
const HELD_GONE = { expired: 'has run out', released: 'was let go', used: 'was already booked' } as const;
/** A held time that can no longer be booked, said to the customer (nothing was booked by this form). */
export const heldTimeGone = (why: keyof typeof HELD_GONE, label: string) =>
  why === 'used'
    ? `The time held for you, ${label}, was already booked with it. If you gave an email address, the link to your booking was sent there.`
    : `The time held for you, ${label}, ${HELD_GONE[why]}: nothing was booked. Hold one of the nearest open times below; your details are kept.`;
export const NO_NEAREST_TIMES = 'There is no open time near it: see every open time for other days.';
export const HOLD_NOT_YOURS = 'This time is not held for you in this browser. Pick a time on the booking page to hold it.';
