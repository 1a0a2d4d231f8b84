import type { Booking, Pro } from '@frontdesk/db';
import { bookingDetails } from '@frontdesk/use-cases';

/**
 * A booking as the customer sees it: the details and the cleaner. The service's fee is the
 * cleaner's business, never the customer's, so it is not shown.
 */
export function presentCustomerBooking(b: Booking, pro: Pick<Pro, 'id' | 'name' | 'timezone' | 'phone' | 'email' | 'website'>) {
  const { booking_id, status, ...details } = bookingDetails(b, pro.timezone);
  return {
    booking_id,
    status,
    cleaner: { cleaner_id: pro.id, name: pro.name, phone: pro.phone, email: pro.email, website: pro.website },
    timezone: pro.timezone,
    ...details,
    booked_at: b.created_at.toISOString(),
  };
}
