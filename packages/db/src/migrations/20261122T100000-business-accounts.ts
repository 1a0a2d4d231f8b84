import { sql, type Kysely } from 'kysely';

// A business signs itself up (issue 13):
// - pros.owner_email: the verified address that signed the business up, lower case. One
//   address owns at most one business, so a sign-up retried or raced creates nothing twice.
//   It is the account, not a contact detail: `email` stays the address customers see, which
//   the business may change without losing its sign-in.
// - time_off.created_at, so a business's time off lists in the order it was taken.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE pros ADD COLUMN owner_email text`.execute(db);
  await sql`CREATE UNIQUE INDEX pros_owner_email ON pros (owner_email) WHERE owner_email IS NOT NULL`.execute(db);
  await sql`ALTER TABLE time_off ADD COLUMN created_at timestamptz NOT NULL DEFAULT now()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE time_off DROP COLUMN created_at`.execute(db);
  await sql`DROP INDEX pros_owner_email`.execute(db);
  await sql`ALTER TABLE pros DROP COLUMN owner_email`.execute(db);
}
