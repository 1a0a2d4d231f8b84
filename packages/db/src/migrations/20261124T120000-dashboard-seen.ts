import { sql, type Kysely } from 'kysely';

// The dashboard's own read state (issue 24): the assistant's `schedule` marks notifications
// read (read_at), which used to empty the owner's dashboard too. dashboard_seen_at is set only
// when the owner dismisses a notification on the dashboard, so each reader keeps its own.
// Rows from before this migration count as seen where the assistant had read them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE notifications ADD COLUMN dashboard_seen_at timestamptz`.execute(db);
  await sql`UPDATE notifications SET dashboard_seen_at = read_at WHERE read_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX notifications_dashboard_unseen ON notifications (pro_id, created_at) WHERE dashboard_seen_at IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX notifications_dashboard_unseen`.execute(db);
  await sql`ALTER TABLE notifications DROP COLUMN dashboard_seen_at`.execute(db);
}
