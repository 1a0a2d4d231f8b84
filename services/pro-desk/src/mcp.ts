import { BOOKING_FEE_TEXT, IDEMPOTENCY_ARGUMENT_TEXT } from '@frontdesk/domain';
import { API_VERSION, instructionsFor, type AnyOperation } from '@frontdesk/http';

/**
 * What an assistant is told when it connects: the contract's rules for the pro side. The
 * rules about one operation live on its definition (its `instruction`); these hold for all.
 */
export const proDeskInstructions = (operations: readonly AnyOperation[]) =>
  instructionsFor({
    intro:
      "Front Desk for a house-cleaning business: pricing, open times, leads, follow-ups, bookings and reports, from the business's own price list and schedule.",
    rules: [
      "Confirm every change with the pro before calling a tool that is not read-only. Cancelling needs the pro's explicit confirmation.",
      `Bookings the business makes are free. A customer who books through the booking service costs the business ${BOOKING_FEE_TEXT}, waived when a no-show is reported; cancelled jobs cost nothing.`,
      'Give sqft only if the customer stated it; never switch a customer to a recurring plan just to lower the price.',
    ],
    operations,
    closing: IDEMPOTENCY_ARGUMENT_TEXT,
  });

export const PRO_DESK_SERVER_INFO = { name: 'front-desk-pro', title: 'Front Desk for cleaning businesses', version: API_VERSION };
