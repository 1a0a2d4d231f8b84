import type { ColumnType, Generated, Selectable } from 'kysely';

export interface OutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  created_at: Generated<Date>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  sent_at: Date | null;
  last_error: string | null;
  /** The body is a credential: blanked once delivered. */
  secret: Generated<boolean>;
  /** An iCalendar file sent with the mail as an attachment; blanked with the body when secret. */
  ics: string | null;
  /** Extra headers the mail carries (List-Unsubscribe), by name. */
  headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  /** An HTML part beside the text one. */
  html_body: string | null;
}

export type OutboxMessage = Selectable<OutboxTable>;
