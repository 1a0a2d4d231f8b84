import type { ColumnType, Generated, Selectable } from 'kysely';

export interface NotificationsTable {
  id: string;
  pro_id: string;
  booking_id: string | null;
  kind: string;
  message: string;
  created_at: Generated<Date>;
  read_at: Date | null;
  /** When the owner dismissed it on the dashboard; the assistant's read (read_at) leaves it shown there. */
  dashboard_seen_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export type Notification = Selectable<NotificationsTable>;
