import type { Generated, Selectable } from 'kysely';

export interface CrewCalendarFeedsTable {
  crew_id: string;
  pro_id: string;
  token_hash: Buffer;
  /** The last 4 characters, so the dashboard can say which address is live. */
  token_hint: string;
  created_at: Generated<Date>;
}

export type CrewCalendarFeed = Selectable<CrewCalendarFeedsTable>;
