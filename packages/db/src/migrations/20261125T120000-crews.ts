import { sql, type Kysely } from 'kysely';

// Several crews per business (issue 25). A business's schedule was one line of jobs; now it
// is one line per crew, and the no-overlap rule holds per crew.
// - crews: 1 to 50 per business, a name unique in the business (ignoring case), its own
//   weekly hours or null for the business's, active or not, and an order (position) the
//   assignment rule breaks ties by. A removed crew keeps its row (removed_at) so the jobs it
//   did keep its name; only crews not removed count.
// - A new business gets its first crew from a trigger, named after it, so every path that
//   makes a business (sign-up, the CLI, a seed) gets one the same way.
// - bookings.crew_id names the crew doing the job; crew_name is the crew's name, filled by a
//   trigger from crew_id and kept current by the foreign key's ON UPDATE CASCADE, so every
//   read of a booking can show its crew without a join. A writer that names no crew (an older
//   process during a deploy, a raw seed) gets the business's first crew.
// - time_off.crew_id: the time off of one crew; null is the whole business's.
// - crew_calendar_feeds: a crew's own secret calendar address (the cleaner's phone).
// - Crew changes bump the business's config_version, as time off does: open times cached
//   under the old version are void at once on every process.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The ids our code makes (`crew_` and 14 lower-case letters or digits), made in SQL for rows
  // the database creates itself.
  await sql`
    CREATE FUNCTION frontdesk_crew_id() RETURNS text LANGUAGE sql VOLATILE AS $$
      SELECT 'crew_' || string_agg(substr('0123456789abcdefghijklmnopqrstuvwxyz', 1 + floor(random() * 36)::int, 1), '')
        FROM generate_series(1, 14)
    $$`.execute(db);

  await sql`
    CREATE TABLE crews (
      id text PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
      active boolean NOT NULL DEFAULT true,
      weekly_hours jsonb,
      position integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      removed_at timestamptz,
      UNIQUE (pro_id, id),
      UNIQUE (pro_id, id, name),
      CHECK (removed_at IS NULL OR NOT active)
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX crews_name ON crews (pro_id, lower(name)) WHERE removed_at IS NULL`.execute(db);

  await sql`
    CREATE TABLE crew_calendar_feeds (
      crew_id text PRIMARY KEY REFERENCES crews (id) ON DELETE CASCADE,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      token_hash bytea NOT NULL UNIQUE,
      token_hint text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  // Every business gets its first crew, named after it (cut to a crew name's 60 characters).
  await sql`
    INSERT INTO crews (id, pro_id, name, position, created_at, updated_at)
    SELECT frontdesk_crew_id(), id, left(name, 60), 1, created_at, created_at FROM pros`.execute(db);
  await sql`
    CREATE FUNCTION pros_first_crew() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO crews (id, pro_id, name, position, created_at, updated_at)
      VALUES (frontdesk_crew_id(), NEW.id, left(NEW.name, 60), 1, NEW.created_at, NEW.created_at);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER pros_first_crew AFTER INSERT ON pros FOR EACH ROW EXECUTE FUNCTION pros_first_crew()`.execute(db);

  // Every job goes on its business's crew; the overlap rule moves from the business to the crew.
  await sql`ALTER TABLE bookings ADD COLUMN crew_id text, ADD COLUMN crew_name text`.execute(db);
  await sql`UPDATE bookings b SET crew_id = c.id, crew_name = c.name FROM crews c WHERE c.pro_id = b.pro_id`.execute(db);
  await sql`
    CREATE FUNCTION bookings_crew() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.crew_id IS NULL THEN
        SELECT id INTO NEW.crew_id FROM crews
         WHERE pro_id = NEW.pro_id AND removed_at IS NULL ORDER BY position, id LIMIT 1;
      END IF;
      SELECT name INTO NEW.crew_name FROM crews WHERE id = NEW.crew_id AND pro_id = NEW.pro_id;
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER bookings_crew BEFORE INSERT OR UPDATE OF crew_id ON bookings FOR EACH ROW EXECUTE FUNCTION bookings_crew()`.execute(db);
  await sql`ALTER TABLE bookings ALTER COLUMN crew_id SET NOT NULL, ALTER COLUMN crew_name SET NOT NULL`.execute(db);
  await sql`
    ALTER TABLE bookings ADD CONSTRAINT bookings_crew FOREIGN KEY (pro_id, crew_id, crew_name)
      REFERENCES crews (pro_id, id, name) ON UPDATE CASCADE`.execute(db);
  await sql`ALTER TABLE bookings DROP CONSTRAINT bookings_no_overlap`.execute(db);
  await sql`
    ALTER TABLE bookings ADD CONSTRAINT bookings_no_overlap EXCLUDE USING gist (
      crew_id WITH =,
      tstzrange(starts_at, blocked_until, '[)') WITH &&
    ) WHERE (status <> 'cancelled')`.execute(db);
  // A business's busy times are still read by range across all its crews.
  await sql`
    CREATE INDEX bookings_live_pro_span ON bookings USING gist (pro_id, tstzrange(starts_at, blocked_until, '[)'))
     WHERE status <> 'cancelled'`.execute(db);
  await sql`CREATE INDEX bookings_crew_starts ON bookings (crew_id, starts_at) WHERE status = 'booked'`.execute(db);

  // Events about a booking name its crew, the old ones too.
  await sql`
    UPDATE events e SET payload = e.payload || jsonb_build_object('crew_id', b.crew_id, 'crew_name', b.crew_name)
      FROM bookings b
     WHERE e.payload ? 'booking_id' AND b.id = e.payload->>'booking_id' AND b.pro_id = e.pro_id`.execute(db);

  await sql`ALTER TABLE time_off ADD COLUMN crew_id text`.execute(db);
  await sql`ALTER TABLE time_off ADD CONSTRAINT time_off_crew FOREIGN KEY (pro_id, crew_id) REFERENCES crews (pro_id, id) ON DELETE CASCADE`.execute(db);

  // A crew added, changed or removed changes the business's open times.
  for (const [event, tables] of [
    ['INSERT', 'NEW TABLE AS new_rows'],
    ['UPDATE', 'NEW TABLE AS new_rows OLD TABLE AS old_rows'],
    ['DELETE', 'OLD TABLE AS old_rows'],
  ] as const) {
    const changed = event === 'DELETE' ? 'old_rows' : event === 'UPDATE' ? 'new_rows UNION SELECT pro_id FROM old_rows' : 'new_rows';
    await sql
      .raw(
        `CREATE FUNCTION crews_bump_${event.toLowerCase()}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE pros SET config_version = config_version + 1 WHERE id IN (SELECT pro_id FROM ${changed});
        RETURN NULL;
      END $$`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER crews_config_version_${event.toLowerCase()} AFTER ${event} ON crews REFERENCING ${tables} FOR EACH STATEMENT EXECUTE FUNCTION crews_bump_${event.toLowerCase()}()`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const event of ['insert', 'update', 'delete']) {
    await sql.raw(`DROP TRIGGER crews_config_version_${event} ON crews`).execute(db);
    await sql.raw(`DROP FUNCTION crews_bump_${event}()`).execute(db);
  }
  await sql`ALTER TABLE time_off DROP COLUMN crew_id`.execute(db);
  await sql`DROP INDEX bookings_crew_starts`.execute(db);
  await sql`DROP INDEX bookings_live_pro_span`.execute(db);
  await sql`ALTER TABLE bookings DROP CONSTRAINT bookings_no_overlap`.execute(db);
  // Going back to one schedule per business: refused by PostgreSQL if two crews' jobs overlap.
  await sql`
    ALTER TABLE bookings ADD CONSTRAINT bookings_no_overlap EXCLUDE USING gist (
      pro_id WITH =,
      tstzrange(starts_at, blocked_until, '[)') WITH &&
    ) WHERE (status <> 'cancelled')`.execute(db);
  await sql`DROP TRIGGER bookings_crew ON bookings`.execute(db);
  await sql`DROP FUNCTION bookings_crew()`.execute(db);
  await sql`ALTER TABLE bookings DROP COLUMN crew_id, DROP COLUMN crew_name`.execute(db);
  await sql`DROP TRIGGER pros_first_crew ON pros`.execute(db);
  await sql`DROP FUNCTION pros_first_crew()`.execute(db);
  await sql`DROP TABLE crew_calendar_feeds`.execute(db);
  await sql`DROP TABLE crews`.execute(db);
  await sql`DROP FUNCTION frontdesk_crew_id()`.execute(db);
}
