import type { ColumnType, Generated, Selectable } from 'kysely';

export interface SeriesTable {
  id: string;
  pro_id: string;
  frequency: 'weekly' | 'biweekly' | 'monthly';
  local_minutes: number;
  first_date: ColumnType<string, string, string>;
  planned_through: ColumnType<string, string, string>;
  template_booking_id: string;
  ended_at: Date | null;
  /** The crew new visits go to when free; null: the first visit's crew. */
  crew_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Visit dates a pause skipped (YYYY-MM-DD): never booked. */
  paused_dates: ColumnType<string[], string[] | undefined, string[]>;
  created_at: Generated<Date>;
}

export type Series = Selectable<SeriesTable>;
