import type { Generated, Selectable } from 'kysely';

export interface NotificationsTable {
  id: string;
  pro_id: string;
  booking_id: string | null;
  kind: string;
  message: string;
  created_at: Generated<Date>;
  read_at: Date | null;
}

export type Notification = Selectable<NotificationsTable>;
