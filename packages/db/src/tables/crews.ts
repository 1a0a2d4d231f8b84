import type { ColumnType, Generated, Selectable } from 'kysely';
import type { WeeklyHours } from '@frontdesk/domain';

/** A crew of a business: who does its jobs. Its own hours, or null for the business's. */
export interface CrewsTable {
  id: string;
  pro_id: string;
  name: string;
  active: Generated<boolean>;
  weekly_hours: ColumnType<WeeklyHours | null, string | null, string | null>;
  /** The crew order: the assignment rule's last tie-break, and the order crews are listed in. */
  position: number;
  /** Where the crew's own morning agenda (only its jobs) is mailed, or null: none. */
  email: Generated<string | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** A removed crew keeps its row so its past jobs keep its name; it takes no jobs. */
  removed_at: Date | null;
}

export type Crew = Selectable<CrewsTable>;
