import { sql, type Kysely } from 'kysely';

// Safe retries: one row per (credential, Idempotency-Key). A request takes the row while it
// runs (a lease, so a crashed replica does not hold it forever); the answer is kept for 24
// hours without its secrets, so a retry gets the same result without the work being done twice.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE idempotency_keys (
      credential text NOT NULL CHECK (length(credential) BETWEEN 1 AND 200),
      key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
      operation text NOT NULL,
      request_hash bytea NOT NULL,
      response jsonb,
      leased_until timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (credential, key)
    )`.execute(db);
  await sql`CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE idempotency_keys`.execute(db);
}
