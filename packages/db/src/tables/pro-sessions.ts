import type { Generated } from 'kysely';

export interface ProSessionsTable {
  token_hash: Buffer;
  pro_id: string;
  expires_at: Date;
  created_at: Generated<Date>;
}
