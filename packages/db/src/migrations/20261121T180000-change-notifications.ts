import { sql, type Kysely } from 'kysely';

// Performance (issue 12): every replica keeps what it read about a pro in memory and must
// learn at once when it changes. Each change to a pro's rows notifies the channel
// frontdesk_changes with "<kind>:<pro_id>" when its transaction commits:
//   c  the profile itself (prices, hours, ZIPs, time off: the rows behind config_version);
//   d  anything else the pro's answers are made from (feed, bookings, leads, checks);
//   k  the pro's keys.
// Statement triggers over transition tables: a bulk write notifies once per pro, and
// PostgreSQL folds identical notifications of one transaction into one.
// The feed is also read through (pro_id, created_at) carrying seq, so a window read finds
// its first event without walking the pro's history.
const TABLES: [table: string, kind: string][] = [
  ['pro_api_keys', 'k'],
  ['bookings', 'd'],
  ['leads', 'd'],
  ['pro_checks', 'd'],
];
const EVENTS = ['INSERT', 'UPDATE', 'DELETE'] as const;

// A row keeps its pro: the new rows name it, or the old ones for a delete.
const transition = (event: (typeof EVENTS)[number]) => `REFERENCING ${event === 'DELETE' ? 'OLD' : 'NEW'} TABLE AS changed`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION pros_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND NEW.config_version = OLD.config_version THEN
        PERFORM pg_notify('frontdesk_changes', 'd:' || NEW.id);
      ELSE
        PERFORM pg_notify('frontdesk_changes', 'c:' || coalesce(NEW.id, OLD.id));
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER pros_notify_change AFTER INSERT OR UPDATE OR DELETE ON pros FOR EACH ROW EXECUTE FUNCTION pros_notify_change()`.execute(db);
  for (const [table, kind] of TABLES) {
    await sql
      .raw(
        `CREATE FUNCTION ${table}_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           PERFORM pg_notify('frontdesk_changes', '${kind}:' || pro_id) FROM (SELECT DISTINCT pro_id FROM changed) p;
           RETURN NULL;
         END $$`,
      )
      .execute(db);
    for (const event of EVENTS) {
      await sql
        .raw(
          `CREATE TRIGGER ${table}_notify_${event.toLowerCase()} AFTER ${event} ON ${table} ${transition(event)} FOR EACH STATEMENT EXECUTE FUNCTION ${table}_notify_change()`,
        )
        .execute(db);
    }
  }
  await sql`CREATE INDEX events_pro_created_seq ON events (pro_id, created_at) INCLUDE (seq)`.execute(db);
  await sql`DROP INDEX events_pro_created`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX events_pro_created ON events (pro_id, created_at)`.execute(db);
  await sql`DROP INDEX events_pro_created_seq`.execute(db);
  for (const [table] of TABLES) {
    for (const event of EVENTS) await sql.raw(`DROP TRIGGER ${table}_notify_${event.toLowerCase()} ON ${table}`).execute(db);
    await sql.raw(`DROP FUNCTION ${table}_notify_change()`).execute(db);
  }
  await sql`DROP TRIGGER pros_notify_change ON pros`.execute(db);
  await sql`DROP FUNCTION pros_notify_change()`.execute(db);
}
