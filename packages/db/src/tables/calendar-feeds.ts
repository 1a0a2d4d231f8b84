import type { Generated, Selectable } from 'kysely';

export interface CalendarFeedsTable {
  pro_id: string;
  token_hash: Buffer;
  /** The last 4 characters, so the dashboard can say which URL is live. */
  token_hint: string;
  created_at: Generated<Date>;
}

export type CalendarFeed = Selectable<CalendarFeedsTable>;
