import { sql, type Kysely } from 'kysely';

// Customers sign in with a one-time code sent by email: codes are stored hashed, expire,
// are used once and allow a few attempts. Mail leaves through an outbox table, written in
// the same transaction as what it announces, and is delivered by a worker.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE sign_in_codes (
      id text PRIMARY KEY,
      email text NOT NULL CHECK (email = lower(email)),
      code_hash bytea NOT NULL,
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX sign_in_codes_email ON sign_in_codes (email, created_at DESC)`.execute(db);

  await sql`
    CREATE TABLE outbox (
      id text PRIMARY KEY,
      to_address text NOT NULL,
      subject text NOT NULL,
      text_body text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      last_error text
    )`.execute(db);
  await sql`CREATE INDEX outbox_pending ON outbox (next_attempt_at) WHERE sent_at IS NULL`.execute(db);

  await sql`
    CREATE TABLE key_sessions (
      token_hash bytea PRIMARY KEY,
      email text NOT NULL CHECK (email = lower(email)),
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('key_sessions').execute();
  await db.schema.dropTable('outbox').execute();
  await db.schema.dropTable('sign_in_codes').execute();
}
