import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

export type PropertyMode = 'book' | 'propose';

/** A host's rental: the turnover job its stays need, the host as the bookings' customer, and its local checkout and check-in times (HH:MM). */
export interface PropertiesTable {
  id: string;
  pro_id: string;
  name: string;
  address: string;
  zip: string;
  bedrooms: number;
  bathrooms: number;
  add_ons: string[];
  pets: boolean;
  crew_id: string | null;
  host_name: string;
  host_phone: string | null;
  host_email: string | null;
  checkout_time: string;
  checkin_time: string;
  mode: PropertyMode;
  /** A host-requested property's manage link, as a hash; null: the business's own property. */
  manage_token_hash: Buffer | null;
  /** The turnover carrying a host-requested property's one booking fee. */
  fee_booking_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type Property = Selectable<PropertiesTable>;
export type NewProperty = Insertable<PropertiesTable>;

/** A stay as a feed listed it (dates YYYY-MM-DD). */
export interface ListedStay {
  uid: string;
  start: string;
  end: string;
  source: string;
}

export type FeedOutcome = 'ok' | 'unchanged' | 'failing';

/** One calendar address of a property, what its last read said, and who reads it now (the lease). */
export interface PropertyFeedsTable {
  id: string;
  property_id: string;
  pro_id: string;
  url: string;
  position: number;
  etag: string | null;
  last_modified: string | null;
  last_read_at: Date | null;
  outcome: FeedOutcome | null;
  /** Why the last read failed, as the owner reads it. */
  reason: string | null;
  stays_listed: number | null;
  /** The stays its last trusted read listed: they stand for the feed while it answers 304 or fails. */
  listed: ColumnType<ListedStay[], string | undefined, string>;
  /** Successful reads in a row that listed no stay: only the second of them may cancel. */
  empty_reads: Generated<number>;
  /** The owner was told the feed is failing; set back once a read succeeds. */
  failing_told: Generated<boolean>;
  next_read_at: Generated<Date>;
  lease_holder: string | null;
  lease_until: Date | null;
}

export type PropertyFeed = Selectable<PropertyFeedsTable>;

/** A guest stay (dates only, as the feeds give them), its UIDs across syncs, and its clean. */
export interface StaysTable {
  id: string;
  property_id: string;
  uids: string[];
  /** YYYY-MM-DD: check-in day and checkout day. */
  start_date: string;
  end_date: string;
  source: string;
  first_seen_at: Generated<Date>;
  last_seen_at: Generated<Date>;
  gone_at: Date | null;
  booking_id: string | null;
  proposed_start: Date | null;
  proposed_crew_id: string | null;
  attention: string | null;
}

export type Stay = Selectable<StaysTable>;
