import { formatLabel, formatLocalIso, toUsd } from '@frontdesk/domain';
import type { Booking, Pro } from '@frontdesk/db';

/**
 * A booking as the customer sees it: the firm price, when and where, and the cleaner.
 * The service's fee is the cleaner's business, never the customer's, so it is not shown.
 */
export function presentCustomerBooking(b: Booking, pro: Pick<Pro, 'id' | 'name' | 'timezone' | 'phone' | 'email' | 'website'>) {
  return {
    booking_id: b.id,
    status: b.status,
    cleaner: { cleaner_id: pro.id, name: pro.name, phone: pro.phone, email: pro.email, website: pro.website },
    start: formatLocalIso(b.starts_at, pro.timezone),
    end: formatLocalIso(b.ends_at, pro.timezone),
    label: formatLabel(b.starts_at, pro.timezone),
    timezone: pro.timezone,
    address: b.address,
    zip: b.zip,
    customer: { name: b.customer_name, phone: b.customer_phone, email: b.customer_email },
    notes: b.notes,
    access_details: b.access_details,
    job: {
      bedrooms: b.bedrooms,
      bathrooms: b.bathrooms,
      clean_type: b.clean_type,
      sqft: b.sqft,
      frequency: b.frequency,
      add_ons: b.add_ons,
      pets: b.pets,
    },
    total: toUsd(b.price_cents),
    line_items: b.quote.line_items.map((l) => ({ label: l.label, amount: toUsd(l.amount_cents) })),
    estimated_hours: b.quote.estimated_hours,
    booked_at: b.created_at.toISOString(),
    cancelled_at: b.cancelled_at?.toISOString() ?? null,
    cancelled_by: b.cancelled_by,
  };
}
