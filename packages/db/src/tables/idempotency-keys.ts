import type { ColumnType, Generated } from 'kysely';

export interface IdempotencyKeysTable {
  credential: string;
  key: string;
  operation: string;
  request_hash: Buffer;
  /** The answer without its secrets; null while the first request still runs. */
  response: ColumnType<object | null, string | null, string | null>;
  leased_until: Date;
  /** The claim that holds the key: a random id per request (empty for rows from before it was kept). */
  holder: Generated<string>;
  expires_at: Date;
  created_at: Generated<Date>;
}
