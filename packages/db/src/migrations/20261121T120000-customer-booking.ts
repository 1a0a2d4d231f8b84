import { sql, type Kysely } from 'kysely';

// The book host: personal keys tied to a customer's email, dated best-effort checks of each
// pro, and the account a booking belongs to (set only from a verified email).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE personal_keys (
      id text PRIMARY KEY,
      email text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 200),
      key_hash bytea NOT NULL UNIQUE,
      key_hint text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX personal_keys_email ON personal_keys (email)`.execute(db);

  await sql`
    CREATE TABLE pro_checks (
      id text PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('website_ownership', 'marketplace_profile')),
      subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 200),
      passed boolean NOT NULL,
      rating numeric(2,1) CHECK (rating BETWEEN 0 AND 5),
      reviews integer CHECK (reviews >= 0),
      checked_on date NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK (kind = 'marketplace_profile' OR (rating IS NULL AND reviews IS NULL))
    )`.execute(db);
  await sql`CREATE INDEX pro_checks_pro ON pro_checks (pro_id, checked_on DESC)`.execute(db);

  await sql`ALTER TABLE bookings ADD COLUMN account_email text CHECK (account_email = lower(account_email))`.execute(db);
  await sql`CREATE INDEX bookings_account ON bookings (account_email, created_at DESC) WHERE account_email IS NOT NULL`.execute(db);
  await sql`CREATE INDEX bookings_live_pro_range ON bookings (pro_id, starts_at) INCLUDE (blocked_until) WHERE status <> 'cancelled'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX bookings_live_pro_range`.execute(db);
  await sql`DROP INDEX bookings_account`.execute(db);
  await sql`ALTER TABLE bookings DROP COLUMN account_email`.execute(db);
  await db.schema.dropTable('pro_checks').execute();
  await db.schema.dropTable('personal_keys').execute();
}
