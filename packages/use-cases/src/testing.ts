import { normalizeJob } from '@frontdesk/domain';
import type { BookingRequest } from './book';

/**
 * A booking the business makes for itself (no fee, no manage token), for tests that need
 * one on a schedule: name the pro, the start and the clock, and override what matters.
 */
export const proBookingRequest = (proId: string, start: Date, now: Date, over: Partial<BookingRequest> = {}): BookingRequest => ({
  proId,
  job: normalizeJob({ bedrooms: 2, bathrooms: 1 }),
  start,
  customer: { name: 'Ana', phone: '555-0100', email: null },
  address: '1 Main St',
  zip: '10001',
  notes: null,
  accessDetails: null,
  channel: 'pro',
  clientName: null,
  leadId: null,
  feeCents: 0,
  manageToken: false,
  accountEmail: null,
  expectedTotalCents: null,
  now,
  ...over,
});
