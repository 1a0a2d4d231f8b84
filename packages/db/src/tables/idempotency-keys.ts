import type { ColumnType, Generated } from 'kysely';

export interface IdempotencyKeysTable {
  credential: string;
  key: string;
  operation: string;
  request_hash: Buffer;
  /** The answer without its secrets; null while the first request still runs. */
  response: ColumnType<object | null, string | null, string | null>;
  leased_until: Date;
  expires_at: Date;
  created_at: Generated<Date>;
}
