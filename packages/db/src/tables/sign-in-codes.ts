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

export type SignInCode = Selectable<SignInCodesTable>;
