import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { Job, Quote } from '@frontdesk/domain';

export const BOOKING_STATUSES = ['booked', 'cancelled', 'no_show'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
/** pro: booked by the pro's own assistant (book_job); book: by a customer on the book host. */
export type BookingChannel = 'pro' | 'book';
export type CancelledBy = 'pro' | 'customer';

/** The job columns (bedrooms to pets) are the domain's Job, one column each. */
export interface BookingsTable extends Job {
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
  price_cents: number;
  quote: ColumnType<Quote, string, string>;
  fee_cents: Generated<number>;
  fee_waived_at: Date | null;
  manage_token_hash: Buffer | null;
  /** The verified email of the customer account the booking belongs to, if any. */
  account_email: string | null;
  cancelled_at: Date | null;
  cancelled_by: 'pro' | 'customer' | null;
  /** The crew doing the job; without one, a write gets the business's first crew. */
  crew_id: string;
  /** The crew's name, set and kept current by the database (a trigger and ON UPDATE CASCADE). */
  crew_name: ColumnType<string, never, never>;
  /** The recurring plan this visit belongs to, if any. */
  series_id: Generated<string | null>;
  /** The client this booking is theirs (set by the database; null for a platform lead's customer). */
  client_id: Generated<string | null>;
  no_show_reported_at: Date | null;
  /** When the "on my way" mail to the customer was queued; set once (at most one per job). */
  on_my_way_sent_at: Date | null;
  /** The property a turnover clean is for (set when its stay is tied to it); null for every other job. */
  property_id: string | null;
  /** The job's version: raised each time its time or state changes (the calendar's SEQUENCE). */
  revision: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** When the start was last written (booked or moved): set by the database from updated_at. */
  start_set_at: ColumnType<Date, never, never>;
}

export type Booking = Selectable<BookingsTable>;
export type NewBooking = Insertable<BookingsTable>;

/** A job's columns, exactly: a job object with more fields than these must not reach an insert. */
export function jobColumns(j: Job): Job {
  return { bedrooms: j.bedrooms, bathrooms: j.bathrooms, clean_type: j.clean_type, sqft: j.sqft, frequency: j.frequency, add_ons: j.add_ons, pets: j.pets };
}
