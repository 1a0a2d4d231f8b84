import type { Generated } from 'kysely';

export interface KeySessionsTable {
  token_hash: Buffer;
  email: string;
  expires_at: Date;
  created_at: Generated<Date>;
}
