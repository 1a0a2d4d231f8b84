import { sql, type Kysely } from 'kysely';

// Hosts asking for turnovers from the book host (issue 37, point 6).
// - pros.host_turnovers: whether a host's request books its cleans (`book`) or proposes them
//   for the owner to accept (`propose`, the default).
// - properties.manage_token_hash: a host-requested property's manage link, stored only as a
//   hash (the link itself is derived from the property's id under a server key, so a mail can
//   carry it again and a copy of the database cannot); null for the business's own properties.
// - properties.fee_booking_id: the turnover that carries the arrangement's one booking fee, as
//   a series' first visit carries the series' fee.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE pros ADD COLUMN host_turnovers text NOT NULL DEFAULT 'propose' CHECK (host_turnovers IN ('propose', 'book'))`.execute(db);
  await sql`ALTER TABLE properties ADD COLUMN manage_token_hash bytea UNIQUE`.execute(db);
  await sql`ALTER TABLE properties ADD COLUMN fee_booking_id text REFERENCES bookings (id) ON DELETE SET NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE properties DROP COLUMN fee_booking_id`.execute(db);
  await sql`ALTER TABLE properties DROP COLUMN manage_token_hash`.execute(db);
  await sql`ALTER TABLE pros DROP COLUMN host_turnovers`.execute(db);
}
