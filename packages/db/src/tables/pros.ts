import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { PriceList, WeeklyHours } from '@frontdesk/domain';

export interface ProsTable {
  id: string;
  name: string;
  timezone: string;
  phone: string | null;
  email: string | null;
  website: string | null;
  /** The verified address that signed the business up (lower case): its account, unique. */
  owner_email: Generated<string | null>;
  service_zips: string[];
  price_list: ColumnType<PriceList, string, string>;
  weekly_hours: ColumnType<WeeklyHours, string, string>;
  travel_buffer_minutes: Generated<number>;
  slot_step_minutes: Generated<number>;
  min_notice_minutes: Generated<number>;
  /** Mail the owner when a customer books, moves or cancels on the book host (on by default). */
  email_me_customer_changes: Generated<boolean>;
  /** Hours before a job's start its customer is reminded (up to two; empty: no reminders). */
  customer_reminder_hours: Generated<number[]>;
  /** When the owner last changed the reminders (null: never). */
  customer_reminders_set_at: Date | null;
  /** The business's review page, asked for after a job; null: no review requests. */
  review_link: string | null;
  /** Hours after a job's end its review request goes. */
  review_delay_hours: Generated<number>;
  /** When the owner last changed the review request (null: never). */
  review_request_set_at: Date | null;
  /** The local time (HH:MM) the owner's morning agenda is mailed, or null: none ("07:00" by default). */
  owner_agenda: Generated<string | null>;
  /** Whether a host's request on the book host books its turnovers or proposes them to the owner. */
  host_turnovers: Generated<'propose' | 'book'>;
  /** Last event sequence number; bumped under the row lock by every event written. */
  event_seq: Generated<number>;
  /** Bumped by a trigger whenever profile, prices or hours change: a cache key. */
  config_version: Generated<number>;
  /** Bumped by a trigger whenever a hold is taken, released or used: with the two above, it versions availability. */
  hold_seq: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type Pro = Selectable<ProsTable>;
export type NewPro = Insertable<ProsTable>;
export type ProUpdate = Updateable<ProsTable>;

/** A pro without its ever-changing event and hold counters: what may be cached by config_version. */
export type ProProfile = Omit<Pro, 'event_seq' | 'hold_seq' | 'updated_at'>;
