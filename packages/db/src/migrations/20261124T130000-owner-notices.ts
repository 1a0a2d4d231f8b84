import { sql, type Kysely } from 'kysely';

// Mail people expect (issue 24):
// - pros.email_me_customer_changes: whether the owner is mailed when a customer books, moves
//   or cancels on the book host; on unless the business turns it off.
// - outbox.ics: an iCalendar file sent with the mail as an attachment (a booking confirmed,
//   moved or cancelled); blanked with the body once a secret mail is delivered.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE pros ADD COLUMN email_me_customer_changes boolean NOT NULL DEFAULT true`.execute(db);
  await sql`ALTER TABLE outbox ADD COLUMN ics text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE outbox DROP COLUMN ics`.execute(db);
  await sql`ALTER TABLE pros DROP COLUMN email_me_customer_changes`.execute(db);
}
