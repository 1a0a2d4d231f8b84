import { sql, type Kysely } from 'kysely';

// Rentals a host stopped (the walk through the pages, points 3 and 4): stopping removes the
// property, and with it the only row its link opened, so the link then named nothing and the
// page after stopping read its count from the address. A stopped rental's link keeps a row
// that says only that it was stopped: the link's hash (nothing else opens it), the business,
// when, and how many upcoming cleans it cancelled; nothing of the rental or its host.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE stopped_rentals (
      token_hash bytea PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      stopped_at timestamptz NOT NULL,
      cancelled integer NOT NULL CHECK (cancelled >= 0)
    )`.execute(db);
  await sql`CREATE INDEX stopped_rentals_of_pro ON stopped_rentals (pro_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE stopped_rentals`.execute(db);
}
