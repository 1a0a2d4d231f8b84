import { sql, type Kysely } from 'kysely';

// Holds (issue 34): a crew's time kept for a caller for a few minutes (book host) or up to two
// days (pro host) while its user confirms, then booked with the hold or released.
// - A hold keeps what the user was shown: the start, the crew, the slot with the travel buffer
//   (blocked_until, as a booking's), the job and its firm quote. Booking with it books exactly
//   that, at that total.
// - It is its owner's: the credential that made it (owner_credential) and, for the shared
//   public key, the X-User-Email / X-User-Phone that came with it.
// - A hold is live while released_at and used_at are null and expires_at > now(). Nothing has
//   to run for it to expire: every check and read compares expires_at with the database's now().
// - One rule for both tables, decided by PostgreSQL on every write whatever path makes it
//   (docs/design.md, "Holds"): a trigger on holds and one on bookings take the crew's
//   transaction-scoped advisory lock, then refuse (exclusion_violation, as bookings_no_overlap
//   does) a live hold or a live booking of that crew whose blocked span overlaps. The lock
//   makes the check and the write one step per crew across processes and both hosts; booking
//   against booking stays with bookings_no_overlap.
// - A hold taken, released or used bumps pros.hold_seq: open times cached under the old
//   availability version are void at once, and the pros row's update notifies the change feed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE pros ADD COLUMN hold_seq integer NOT NULL DEFAULT 0`.execute(db);
  await sql`
    CREATE TABLE holds (
      id text PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      crew_id text NOT NULL,
      host text NOT NULL CHECK (host IN ('book', 'pro')),
      starts_at timestamptz NOT NULL,
      ends_at timestamptz NOT NULL,
      blocked_until timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      job jsonb NOT NULL,
      quote jsonb NOT NULL,
      price_cents integer NOT NULL CHECK (price_cents >= 0),
      owner_credential text NOT NULL CHECK (length(owner_credential) <= 300),
      owner_email text CHECK (length(owner_email) <= 200),
      owner_phone text CHECK (length(owner_phone) <= 30),
      lead_id text REFERENCES leads (id) ON DELETE SET NULL,
      booking_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      released_at timestamptz,
      used_at timestamptz,
      CONSTRAINT holds_crew FOREIGN KEY (pro_id, crew_id) REFERENCES crews (pro_id, id) ON DELETE CASCADE,
      CHECK (starts_at < ends_at AND ends_at <= blocked_until),
      CHECK (expires_at > created_at),
      CHECK (released_at IS NULL OR used_at IS NULL)
    )`.execute(db);
  // Live-or-not holds by crew and span (the checks), and by pro and span (the reads of busy times).
  await sql`
    CREATE INDEX holds_open_crew_span ON holds USING gist (crew_id, tstzrange(starts_at, blocked_until, '[)'))
     WHERE released_at IS NULL AND used_at IS NULL`.execute(db);
  await sql`
    CREATE INDEX holds_open_pro_span ON holds USING gist (pro_id, tstzrange(starts_at, blocked_until, '[)'))
     WHERE released_at IS NULL AND used_at IS NULL`.execute(db);

  // The crew's lock: one key space of our own (the first int), the crew's id hashed (the second).
  await sql`
    CREATE FUNCTION frontdesk_lock_crew(crew text) RETURNS void LANGUAGE sql VOLATILE AS $$
      SELECT pg_advisory_xact_lock(340034, hashtext(crew))
    $$`.execute(db);

  await sql`
    CREATE FUNCTION holds_no_overlap() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.released_at IS NOT NULL OR NEW.used_at IS NOT NULL THEN RETURN NEW; END IF;
      PERFORM frontdesk_lock_crew(NEW.crew_id);
      IF EXISTS (SELECT 1 FROM bookings
                  WHERE crew_id = NEW.crew_id AND status <> 'cancelled'
                    AND tstzrange(starts_at, blocked_until, '[)') && tstzrange(NEW.starts_at, NEW.blocked_until, '[)'))
         OR EXISTS (SELECT 1 FROM holds
                     WHERE crew_id = NEW.crew_id AND id <> NEW.id AND released_at IS NULL AND used_at IS NULL AND expires_at > now()
                       AND tstzrange(starts_at, blocked_until, '[)') && tstzrange(NEW.starts_at, NEW.blocked_until, '[)')) THEN
        RAISE EXCEPTION 'the crew''s time overlaps a live booking or hold' USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'holds_no_overlap';
      END IF;
      RETURN NEW;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER holds_no_overlap BEFORE INSERT OR UPDATE OF crew_id, starts_at, blocked_until, released_at, used_at, expires_at ON holds
      FOR EACH ROW EXECUTE FUNCTION holds_no_overlap()`.execute(db);

  await sql`
    CREATE FUNCTION bookings_no_hold_overlap() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.status = 'cancelled' THEN RETURN NEW; END IF;
      PERFORM frontdesk_lock_crew(NEW.crew_id);
      IF EXISTS (SELECT 1 FROM holds
                  WHERE crew_id = NEW.crew_id AND released_at IS NULL AND used_at IS NULL AND expires_at > now()
                    AND tstzrange(starts_at, blocked_until, '[)') && tstzrange(NEW.starts_at, NEW.blocked_until, '[)')) THEN
        RAISE EXCEPTION 'the crew''s time is held' USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'bookings_no_hold_overlap';
      END IF;
      RETURN NEW;
    END $$`.execute(db);
  // Runs after bookings_crew (triggers fire by name): crew_id is filled by then.
  await sql`
    CREATE TRIGGER bookings_no_hold_overlap BEFORE INSERT OR UPDATE OF crew_id, starts_at, blocked_until, status ON bookings
      FOR EACH ROW EXECUTE FUNCTION bookings_no_hold_overlap()`.execute(db);

  for (const [event, tables] of [
    ['INSERT', 'NEW TABLE AS changed'],
    ['UPDATE', 'NEW TABLE AS changed'],
  ] as const) {
    await sql
      .raw(
        `CREATE FUNCTION holds_bump_${event.toLowerCase()}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE pros SET hold_seq = hold_seq + 1 WHERE id IN (SELECT DISTINCT pro_id FROM changed);
        RETURN NULL;
      END $$`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER holds_hold_seq_${event.toLowerCase()} AFTER ${event} ON holds REFERENCING ${tables} FOR EACH STATEMENT EXECUTE FUNCTION holds_bump_${event.toLowerCase()}()`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER bookings_no_hold_overlap ON bookings`.execute(db);
  await sql`DROP FUNCTION bookings_no_hold_overlap()`.execute(db);
  await sql`DROP TABLE holds`.execute(db);
  for (const event of ['insert', 'update']) await sql.raw(`DROP FUNCTION holds_bump_${event}()`).execute(db);
  await sql`DROP FUNCTION holds_no_overlap()`.execute(db);
  await sql`DROP FUNCTION frontdesk_lock_crew(text)`.execute(db);
  await sql`ALTER TABLE pros DROP COLUMN hold_seq`.execute(db);
}
