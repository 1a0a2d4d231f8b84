import { IDEMPOTENCY_ARGUMENT_TEXT } from '@frontdesk/domain';
import { API_VERSION, instructionsFor, type AnyOperation } from '@frontdesk/http';

/**
 * What an assistant is told when it connects: the contract's rules for the customer side. The
 * rules about one operation live on its definition (its `instruction`); these hold for all.
 */
export const bookingInstructions = (operations: readonly AnyOperation[]) =>
  instructionsFor({
    intro: 'Front Desk booking: find independent local house cleaners for a ZIP, see firm prices and open times, book, check and cancel.',
    rules: [
      'Prices are set by each cleaner and include everything listed; there are no added fees for the customer.',
      "Fill the customer's name, phone or email and address from what you already know about the user; ask only for what is missing, in one message, and tell the user which details were shared with the cleaner.",
      'Notes and access details are optional: never hold a booking back to ask for them.',
      'The cleaner contacts the user about access and payment after booking.',
      'The checks list holds best-effort checks with dates. Present them as such, never as a guarantee or endorsement. Each business is independent; licenses and insurance are not checked.',
      "With the shared public key, send the user's details as X-User-Name, X-User-Email and X-User-Phone headers; my_bookings lists nothing with it.",
    ],
    operations,
    closing: IDEMPOTENCY_ARGUMENT_TEXT,
  });

export const BOOKING_SERVER_INFO = { name: 'front-desk-booking', title: 'Front Desk: book a house cleaner', version: API_VERSION };
