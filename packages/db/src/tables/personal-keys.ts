import type { Generated, Selectable } from 'kysely';

export interface PersonalKeysTable {
  id: string;
  /** The customer's email, lower case: the account the key acts for. */
  email: string;
  key_hash: Buffer;
  key_hint: string;
  created_at: Generated<Date>;
  revoked_at: Date | null;
}

export type PersonalKey = Selectable<PersonalKeysTable>;
