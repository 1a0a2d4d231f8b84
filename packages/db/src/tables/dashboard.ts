import type { ColumnType, Generated, Selectable } from 'kysely';

export interface ProSessionsTable {
  token_hash: Buffer;
  pro_id: string;
  expires_at: Date;
  created_at: Generated<Date>;
}

export interface CalendarFeedsTable {
  pro_id: string;
  token_hash: Buffer;
  /** The last 4 characters, so the dashboard can say which URL is live. */
  token_hint: string;
  created_at: Generated<Date>;
}

export type CalendarFeed = Selectable<CalendarFeedsTable>;

export interface SeriesTable {
  id: string;
  pro_id: string;
  frequency: 'weekly' | 'biweekly' | 'monthly';
  local_minutes: number;
  first_date: ColumnType<string, string, string>;
  planned_through: ColumnType<string, string, string>;
  template_booking_id: string;
  ended_at: Date | null;
  created_at: Generated<Date>;
}

export type Series = Selectable<SeriesTable>;
