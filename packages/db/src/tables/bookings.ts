import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { CleanType, Frequency, Quote } from '@frontdesk/domain';

export const BOOKING_STATUSES = ['booked', 'cancelled', 'no_show'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
/** pro: booked by the pro's own assistant (book_job); book: by a customer on the book host. */
export type BookingChannel = 'pro' | 'book';

export interface BookingsTable {
  id: string;
  pro_id: string;
  lead_id: string | null;
  channel: BookingChannel;
  /** The assistant that made the booking (X-Client-Name). */
  client_name: string | null;
  status: Generated<BookingStatus>;
  starts_at: Date;
  ends_at: Date;
  /** ends_at plus the travel buffer in force when booked; the overlap rule covers it. */
  blocked_until: Date;
  customer_name: string;
  customer_phone: string | null;
  customer_email: string | null;
  address: string;
  zip: string;
  notes: string | null;
  access_details: string | null;
  bedrooms: number;
  bathrooms: number;
  clean_type: CleanType;
  sqft: number | null;
  frequency: Frequency;
  add_ons: string[];
  pets: boolean;
  price_cents: number;
  quote: ColumnType<Quote, string, string>;
  fee_cents: Generated<number>;
  fee_waived_at: Date | null;
  manage_token_hash: Buffer | null;
  /** The verified email of the customer account the booking belongs to, if any. */
  account_email: string | null;
  cancelled_at: Date | null;
  cancelled_by: string | null;
  no_show_reported_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type Booking = Selectable<BookingsTable>;
export type NewBooking = Insertable<BookingsTable>;
