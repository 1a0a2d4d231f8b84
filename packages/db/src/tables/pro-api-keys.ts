import type { Generated, Selectable } from 'kysely';

export interface ProApiKeysTable {
  id: string;
  pro_id: string;
  /** SHA-256 of the key; the key itself is shown once and never stored. */
  key_hash: Buffer;
  /** The key's last characters, so a person can tell keys apart. */
  key_hint: string;
  created_at: Generated<Date>;
  revoked_at: Date | null;
}

export type ProApiKey = Selectable<ProApiKeysTable>;
