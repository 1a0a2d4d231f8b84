import { sql, type Kysely } from 'kysely';

// A turnover clean names its property (issue 37, point 5): bookings.property_id is set in the
// transaction that ties a stay to its booking, so schedule, booking_status and the calendar feed
// read it off the booking row like any other field. A property removed leaves its past cleans
// with null. Bookings already tied to a stay get theirs now.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE bookings ADD COLUMN property_id text REFERENCES properties (id) ON DELETE SET NULL`.execute(db);
  await sql`UPDATE bookings b SET property_id = s.property_id FROM stays s WHERE s.booking_id = b.id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE bookings DROP COLUMN property_id`.execute(db);
}
