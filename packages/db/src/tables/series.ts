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
  created_at: Generated<Date>;
}

export type Series = Selectable<SeriesTable>;
