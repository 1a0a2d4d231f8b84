import { sql, type Kysely } from 'kysely';

// The security and fault tail (issue 26): idempotency keys name the request that holds them.
// - idempotency_keys.holder: a random id per claim. A release or a kept answer touches the row
//   only while its own claim still holds it, so a late release (retried after an outage) never
//   frees a key that another request has since taken over; and a process whose own request
//   died holding a key (its release could not reach the database) takes the key over at once
//   instead of waiting out the lease. Rows from before hold the empty id.
// (Named for the per-credential rate budget of the same issue, whose leases need no table of
// their own: they are taken from `rate_limits` in one statement.)
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE idempotency_keys ADD COLUMN holder text NOT NULL DEFAULT ''`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE idempotency_keys DROP COLUMN holder`.execute(db);
}
