import { sql, type Kysely } from 'kysely';

// Security (issue 11):
// - rate_limits: fixed-window counters every replica shares, keyed by a hash of
//   (limit, subject) so no address or email is stored in the clear;
// - oauth_clients.last_used_at: dynamically registered clients that never got a code are purged;
// - oauth_revoked_sign_ins: a revoked sign-in (refresh family) stops its access tokens at once;
// - signing keys: the private key is kept only sealed with a key from the environment. Keys
//   stored in the clear before this migration are retired (they keep verifying the tokens they
//   signed through their public half) and their private half is dropped;
// - outbox.secret: a mail whose body is a credential (a sign-in code) is blanked once delivered.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rate_limits (
      key bytea PRIMARY KEY,
      hits integer NOT NULL CHECK (hits >= 0),
      resets_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX rate_limits_resets_at ON rate_limits (resets_at)`.execute(db);
  await sql`ALTER TABLE oauth_clients ADD COLUMN last_used_at timestamptz`.execute(db);
  await sql`
    CREATE TABLE oauth_revoked_sign_ins (
      family_id text PRIMARY KEY,
      revoked_at timestamptz NOT NULL
    )`.execute(db);
  await sql`UPDATE oauth_signing_keys SET retired_at = now() WHERE retired_at IS NULL`.execute(db);
  await sql`ALTER TABLE oauth_signing_keys DROP COLUMN private_jwk`.execute(db);
  await sql`ALTER TABLE oauth_signing_keys ADD COLUMN private_key_sealed bytea`.execute(db);
  await sql`ALTER TABLE outbox ADD COLUMN secret boolean NOT NULL DEFAULT false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE outbox DROP COLUMN secret`.execute(db);
  // A sealed key cannot be turned back into a clear one here: the keys are dropped, and the
  // services make a new one on start.
  await sql`DELETE FROM oauth_signing_keys`.execute(db);
  await sql`ALTER TABLE oauth_signing_keys DROP COLUMN private_key_sealed`.execute(db);
  await sql`ALTER TABLE oauth_signing_keys ADD COLUMN private_jwk jsonb NOT NULL`.execute(db);
  await sql`DROP TABLE oauth_revoked_sign_ins`.execute(db);
  await sql`ALTER TABLE oauth_clients DROP COLUMN last_used_at`.execute(db);
  await sql`DROP TABLE rate_limits`.execute(db);
}
