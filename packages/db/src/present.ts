import { formatLabel, formatLocalIso, toUsd } from '@frontdesk/domain';
import type { Booking } from './tables/bookings';

/** A booking as both services show it: local times with the pro's offset, USD amounts. */
export function presentBooking(b: Booking, timezone: string) {
  return {
    booking_id: b.id,
    status: b.status,
    start: formatLocalIso(b.starts_at, timezone),
    end: formatLocalIso(b.ends_at, timezone),
    label: formatLabel(b.starts_at, timezone),
    customer: { name: b.customer_name, phone: b.customer_phone, email: b.customer_email },
    address: b.address,
    zip: b.zip,
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
    channel: b.channel,
    client_name: b.client_name,
    lead_id: b.lead_id,
    fee: b.fee_waived_at || b.status === 'cancelled' ? 0 : toUsd(b.fee_cents),
    created_at: b.created_at.toISOString(),
    cancelled_at: b.cancelled_at?.toISOString() ?? null,
    cancelled_by: b.cancelled_by,
  };
}
