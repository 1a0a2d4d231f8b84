import { sql, type Kysely } from 'kysely';

// A version that changes whenever a pro's profile, prices, hours or time off change (never
// for the event counter), so readers may cache what they derive from them and check it with
// one integer. Bookings change the event counter instead: together they version availability.
const CONFIG_COLUMNS =
  'name, timezone, phone, email, website, service_zips, price_list, weekly_hours, travel_buffer_minutes, slot_step_minutes, min_notice_minutes';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE pros ADD COLUMN config_version integer NOT NULL DEFAULT 1`.execute(db);
  await sql
    .raw(
      `
    CREATE FUNCTION pros_bump_config_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (NEW.${CONFIG_COLUMNS.split(', ').join(', NEW.')}) IS DISTINCT FROM (OLD.${CONFIG_COLUMNS.split(', ').join(', OLD.')}) THEN
        NEW.config_version := OLD.config_version + 1;
        NEW.updated_at := now();
      END IF;
      RETURN NEW;
    END $$`,
    )
    .execute(db);
  await sql`CREATE TRIGGER pros_config_version BEFORE UPDATE ON pros FOR EACH ROW EXECUTE FUNCTION pros_bump_config_version()`.execute(db);
  for (const [event, tables] of [
    ['INSERT', 'NEW TABLE AS new_rows'],
    ['UPDATE', 'NEW TABLE AS new_rows OLD TABLE AS old_rows'],
    ['DELETE', 'OLD TABLE AS old_rows'],
  ] as const) {
    await sql
      .raw(
        `CREATE FUNCTION time_off_bump_${event.toLowerCase()}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE pros SET config_version = config_version + 1 WHERE id IN (SELECT pro_id FROM ${event === 'DELETE' ? 'old_rows' : 'new_rows'}${event === 'UPDATE' ? ' UNION SELECT pro_id FROM old_rows' : ''});
        RETURN NULL;
      END $$`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER time_off_config_version_${event.toLowerCase()} AFTER ${event} ON time_off REFERENCING ${tables} FOR EACH STATEMENT EXECUTE FUNCTION time_off_bump_${event.toLowerCase()}()`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const event of ['insert', 'update', 'delete']) {
    await sql.raw(`DROP TRIGGER time_off_config_version_${event} ON time_off`).execute(db);
    await sql.raw(`DROP FUNCTION time_off_bump_${event}()`).execute(db);
  }
  await sql`DROP TRIGGER pros_config_version ON pros`.execute(db);
  await sql`DROP FUNCTION pros_bump_config_version()`.execute(db);
  await sql`ALTER TABLE pros DROP COLUMN config_version`.execute(db);
}
