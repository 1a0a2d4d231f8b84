import type { Generated, Selectable } from 'kysely';

export interface TimeOffTable {
  id: string;
  pro_id: string;
  starts_at: Date;
  ends_at: Date;
  note: string | null;
  /** One crew's time off; null is the whole business's. */
  crew_id: Generated<string | null>;
  created_at: Generated<Date>;
}

export type TimeOffRow = Selectable<TimeOffTable>;
