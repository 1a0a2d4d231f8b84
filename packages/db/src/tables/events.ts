import type { ColumnType, Generated, Selectable } from 'kysely';

export interface EventsTable {
  pro_id: string;
  /** Gapless per pro and in commit order: taken from pros.event_seq under its row lock. */
  seq: number;
  kind: string;
  payload: ColumnType<Record<string, unknown>, string, never>;
  /** Set for time-based events so each is written once, whoever notices it first. */
  dedupe_key: string | null;
  created_at: Generated<Date>;
}

export type EventRow = Selectable<EventsTable>;
