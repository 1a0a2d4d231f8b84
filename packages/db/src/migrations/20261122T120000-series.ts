import { sql, type Kysely } from 'kysely';

// Recurring cleanings (issue 16): a series is a weekly, biweekly or monthly plan whose
// visits are ordinary bookings carrying its id, each checked and held like any booking.
// planned_through is the last visit date considered (booked or skipped): the horizon rolls
// forward from it. The first visit is the template later visits copy.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE series (
      id text PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      frequency text NOT NULL CHECK (frequency IN ('weekly', 'biweekly', 'monthly')),
      local_minutes integer NOT NULL CHECK (local_minutes BETWEEN 0 AND 1439),
      first_date date NOT NULL,
      planned_through date NOT NULL,
      template_booking_id text NOT NULL,
      ended_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX series_live ON series (pro_id) WHERE ended_at IS NULL`.execute(db);
  await sql`ALTER TABLE bookings ADD COLUMN series_id text REFERENCES series (id) ON DELETE SET NULL`.execute(db);
  await sql`CREATE INDEX bookings_series ON bookings (series_id, starts_at) WHERE series_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE bookings DROP COLUMN series_id`.execute(db);
  await sql`DROP TABLE series`.execute(db);
}
