import { sql, type Kysely } from 'kysely';

// Recurring plans run from the dashboard (issue 35). crew_id is the crew new visits go to when
// it is free: changing the crew of every later visit changes it, so the horizon worker keeps
// booking that crew (before, new visits followed the first visit's crew). paused_dates are the
// visit dates a pause skipped, as YYYY-MM-DD: the worker never books them, so a pause longer
// than the booked horizon still holds, and the plan carries on after it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE series ADD COLUMN crew_id text REFERENCES crews (id) ON DELETE SET NULL, ADD COLUMN paused_dates text[] NOT NULL DEFAULT '{}'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE series DROP COLUMN crew_id, DROP COLUMN paused_dates`.execute(db);
}
