import type { Generated, Selectable } from 'kysely';

/** An endpoint a business's events are sent to, with its place in the business's feed. */
export interface WebhooksTable {
  id: string;
  pro_id: string;
  url: string;
  /** The event kinds it takes; null for every kind. */
  kinds: string[] | null;
  paused: Generated<boolean>;
  /** The whsec_ secret, sealed with the key-encryption key (the row's id is the associated data). */
  secret_sealed: Buffer;
  /** During a rotation: the secret before, which still signs until previous_until. */
  previous_secret_sealed: Buffer | null;
  previous_until: Date | null;
  /** After a second rotation within the window: the secret before the previous one, signing until older_until. */
  older_secret_sealed: Buffer | null;
  older_until: Date | null;
  /** The secret's last 4 characters, so a person can tell which one is live. */
  secret_hint: string;
  /** The last event of the feed acknowledged (or not taken): every later one is owed. */
  delivered_seq: number;
  /** Failed tries of the event after the cursor. */
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  failing_since: Date | null;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  last_failure: string | null;
  lease_until: Date | null;
  lease_holder: string | null;
  created_at: Generated<Date>;
}

export type Webhook = Selectable<WebhooksTable>;
