import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { Job, Quote } from '@frontdesk/domain';

/** Which host took a hold: a customer's assistant (book) or the business's (pro). */
export type HoldHost = 'book' | 'pro';

/** A crew's time kept for its owner until expires_at, unless released or used first. */
export interface HoldsTable {
  id: string;
  pro_id: string;
  crew_id: string;
  host: HoldHost;
  starts_at: Date;
  ends_at: Date;
  /** ends_at plus the travel buffer, as the booking it becomes would block. */
  blocked_until: Date;
  /** Set by the database (now() plus the minutes asked): the hold stops counting then. */
  expires_at: Date;
  job: ColumnType<Job, string, string>;
  quote: ColumnType<Quote, string, string>;
  price_cents: number;
  /** The credential that took it; with the shared public key, owner_email/owner_phone too. */
  owner_credential: string;
  owner_email: string | null;
  owner_phone: string | null;
  lead_id: string | null;
  /** The booking that used it. */
  booking_id: string | null;
  created_at: Generated<Date>;
  released_at: Date | null;
  used_at: Date | null;
}

export type Hold = Selectable<HoldsTable>;
export type NewHold = Insertable<HoldsTable>;
