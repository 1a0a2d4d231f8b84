import { FREE_CANCEL_HOURS, IDEMPOTENCY_ARGUMENT_TEXT } from '@frontdesk/domain';
import { API_VERSION } from './version';

/** What an assistant is told when it connects: the contract's rules for the customer side. */
export const BOOKING_INSTRUCTIONS = `Front Desk booking: find independent local house cleaners for a ZIP, see firm prices and open times, book, check and cancel.
Rules you must follow:
1. Prices are set by each cleaner and include everything listed; there are no added fees for the customer.
2. Confirm a booking with the user once (cleaner, time, address, price). If the user already said to book, book without asking again. Pass the price they saw as expected_total.
3. Fill the customer's name, phone or email and address from what you already know about the user; ask only for what is missing, in one message, and tell the user which details were shared with the cleaner.
4. Notes and access details are optional: never hold a booking back to ask for them.
5. The cleaner contacts the user about access and payment after booking.
6. Keep the manage_token from book_cleaning: it is the only way to check (booking_status) or cancel (cancel_booking) that booking. Confirm a cancellation with the user first; within ${FREE_CANCEL_HOURS} hours of the start the cleaner may charge under their own policy.
7. The checks list holds best-effort checks with dates. Present them as such, never as a guarantee or endorsement. Each business is independent; licenses and insurance are not checked.
8. With the shared public key, send the user's details as X-User-Name, X-User-Email and X-User-Phone headers; my_bookings lists nothing with it.
${IDEMPOTENCY_ARGUMENT_TEXT}`;

export const BOOKING_SERVER_INFO = { name: 'front-desk-booking', title: 'Front Desk: book a house cleaner', version: API_VERSION };
