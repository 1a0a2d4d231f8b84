import type { Generated, Selectable } from 'kysely';

export interface SignInCodesTable {
  id: string;
  email: string;
  /** SHA-256 of the row id and the code: the code itself is never stored. */
  code_hash: Buffer;
  attempts: Generated<number>;
  expires_at: Date;
  consumed_at: Date | null;
  created_at: Generated<Date>;
}

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
}

export interface KeySessionsTable {
  token_hash: Buffer;
  email: string;
  expires_at: Date;
  created_at: Generated<Date>;
}

export type SignInCode = Selectable<SignInCodesTable>;
export type OutboxMessage = Selectable<OutboxTable>;
