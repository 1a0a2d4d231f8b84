import { sql, type Kysely } from 'kysely';

// A webhook's secret rotated twice within a day: the secret before the previous one keeps
// signing until its own time is up. Before, a second rotation (say, a retry of the first whose
// answer was lost) dropped at once the secret the receiver still had.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE webhooks ADD COLUMN older_secret_sealed bytea, ADD COLUMN older_until timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE webhooks DROP COLUMN older_secret_sealed, DROP COLUMN older_until`.execute(db);
}
