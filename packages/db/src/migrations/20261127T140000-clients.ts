import { sql, type Kysely } from 'kysely';

// Clients (issue 35): the people a business works for, one row per person, found again by a
// stable identity whatever path wrote their booking or lead (both hosts, the CLI, a seed).
// - A client's identity is its email, trimmed and lower-cased; without one, its phone's last
//   10 digits (at least 7 digits); so "Ana@x.com" and "ana@x.com " are one client, and so are
//   "(212) 555-0100" and "+1 212.555.0100". A booking or lead with neither has no client.
// - A booking is its client's unless it is a platform lead's (its lead's source is
//   marketplace_1..5): the pro interface's rule 6 keeps those customers out of the business's
//   own records of people to reach. A direct lead is its client's when its contact reads as an
//   email or a phone number; a platform lead never is (it stores no contact anyway).
// - bookings.client_id and leads.client_id are set by BEFORE triggers, which add or update the
//   client: a booking's name, phone, email and address are the newest; a lead's only fill what
//   is missing. `search` keeps every name, email, phone (digits only) and address the client was
//   seen with, lower-cased, so a search finds them by any; its trigram index (pg_trgm) finds a
//   part of any of them among thousands without reading them all.
// - notes: what the owner keeps about the client, theirs alone (never shown to the customer).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`
    CREATE FUNCTION frontdesk_client_id() RETURNS text LANGUAGE sql VOLATILE AS $$
      SELECT 'cl_' || string_agg(substr('0123456789abcdefghijklmnopqrstuvwxyz', 1 + floor(random() * 36)::int, 1), '')
        FROM generate_series(1, 14)
    $$`.execute(db);
  await sql`
    CREATE TABLE clients (
      id text PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      identity text NOT NULL,
      name text,
      phone text,
      email text,
      address text,
      zip text,
      sort_name text GENERATED ALWAYS AS (lower(coalesce(name, email, phone, ''))) STORED,
      search text NOT NULL DEFAULT '',
      notes text CHECK (length(notes) <= 2000),
      notes_updated_at timestamptz,
      first_seen_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (pro_id, identity)
    )`.execute(db);
  await sql`CREATE INDEX clients_by_name ON clients (pro_id, sort_name, id)`.execute(db);
  await sql`CREATE INDEX clients_search ON clients USING gin (search gin_trgm_ops)`.execute(db);

  await sql`
    CREATE FUNCTION frontdesk_client_identity(email text, phone text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
      SELECT CASE
        WHEN nullif(btrim(email), '') IS NOT NULL THEN 'email:' || lower(btrim(email))
        WHEN length(regexp_replace(coalesce(phone, ''), '\\D', '', 'g')) >= 7 THEN 'phone:' || right(regexp_replace(phone, '\\D', '', 'g'), 10)
      END
    $$`.execute(db);

  // The search text with each term added once (lower-cased; a phone as its digits), at most 4,000 characters.
  await sql`
    CREATE FUNCTION frontdesk_client_search(search text, terms text[]) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
    DECLARE t text;
    BEGIN
      FOREACH t IN ARRAY terms LOOP
        t := lower(btrim(coalesce(t, '')));
        IF t <> '' AND position(t IN search) = 0 THEN search := left(btrim(search || ' ' || t), 4000); END IF;
      END LOOP;
      RETURN search;
    END $$`.execute(db);

  // Adds or updates the client of a booking (newest wins) or a lead (fills gaps); answers its id.
  await sql`
    CREATE FUNCTION frontdesk_client_seen(pro text, who jsonb, newest boolean) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
      key text := frontdesk_client_identity(who->>'email', who->>'phone');
      terms text[] := ARRAY[who->>'name', who->>'email', regexp_replace(coalesce(who->>'phone', ''), '\\D', '', 'g'), who->>'address'];
      client text;
    BEGIN
      IF key IS NULL THEN RETURN NULL; END IF;
      INSERT INTO clients AS c (id, pro_id, identity, name, phone, email, address, zip, search)
      VALUES (frontdesk_client_id(), pro, key, who->>'name', who->>'phone', lower(btrim(who->>'email')), who->>'address', who->>'zip', frontdesk_client_search('', terms))
      ON CONFLICT (pro_id, identity) DO UPDATE SET
        name = CASE WHEN newest THEN coalesce(EXCLUDED.name, c.name) ELSE coalesce(c.name, EXCLUDED.name) END,
        phone = CASE WHEN newest THEN coalesce(EXCLUDED.phone, c.phone) ELSE coalesce(c.phone, EXCLUDED.phone) END,
        email = coalesce(c.email, EXCLUDED.email),
        address = CASE WHEN newest THEN coalesce(EXCLUDED.address, c.address) ELSE coalesce(c.address, EXCLUDED.address) END,
        zip = CASE WHEN newest THEN coalesce(EXCLUDED.zip, c.zip) ELSE coalesce(c.zip, EXCLUDED.zip) END,
        search = frontdesk_client_search(c.search, terms),
        last_seen_at = greatest(c.last_seen_at, now())
      RETURNING id INTO client;
      RETURN client;
    END $$`.execute(db);

  await sql`ALTER TABLE bookings ADD COLUMN client_id text REFERENCES clients (id) ON DELETE SET NULL`.execute(db);
  await sql`CREATE INDEX bookings_client ON bookings (client_id, starts_at) WHERE client_id IS NOT NULL`.execute(db);
  await sql`ALTER TABLE leads ADD COLUMN client_id text REFERENCES clients (id) ON DELETE SET NULL`.execute(db);
  await sql`CREATE INDEX leads_client ON leads (client_id) WHERE client_id IS NOT NULL`.execute(db);

  await sql`
    CREATE FUNCTION bookings_client() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.lead_id IS NOT NULL AND EXISTS (SELECT 1 FROM leads WHERE id = NEW.lead_id AND source LIKE 'marketplace\\_%') THEN
        NEW.client_id := NULL;
      ELSE
        NEW.client_id := frontdesk_client_seen(NEW.pro_id, jsonb_build_object(
          'name', NEW.customer_name, 'phone', NEW.customer_phone, 'email', NEW.customer_email, 'address', NEW.address, 'zip', NEW.zip), true);
      END IF;
      RETURN NEW;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER bookings_client BEFORE INSERT OR UPDATE OF customer_name, customer_phone, customer_email, address, zip, lead_id ON bookings
      FOR EACH ROW EXECUTE FUNCTION bookings_client()`.execute(db);

  // A direct lead's contact: the email in it, else the phone number it is.
  await sql`
    CREATE FUNCTION leads_client() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE email text := substring(NEW.contact FROM '[^@\\s,;<>()]+@[^@\\s,;<>()]+\\.[^@\\s,;<>()]+');
    BEGIN
      IF NEW.source LIKE 'marketplace\\_%' OR NEW.contact IS NULL THEN
        NEW.client_id := NULL;
      ELSE
        NEW.client_id := frontdesk_client_seen(NEW.pro_id, jsonb_build_object(
          'name', NEW.customer_first_name, 'email', email, 'phone', CASE WHEN email IS NULL THEN NEW.contact END, 'zip', NEW.zip), false);
      END IF;
      RETURN NEW;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER leads_client BEFORE INSERT OR UPDATE OF source, contact, customer_first_name ON leads
      FOR EACH ROW EXECUTE FUNCTION leads_client()`.execute(db);

  // The clients of what is stored already: leads first (they only fill gaps), then bookings oldest first (the newest name wins).
  await sql`
    DO $$ DECLARE r record;
    BEGIN
      FOR r IN SELECT id FROM leads WHERE contact IS NOT NULL ORDER BY created_at, id LOOP
        UPDATE leads SET contact = contact WHERE id = r.id;
      END LOOP;
      FOR r IN SELECT id FROM bookings ORDER BY created_at, id LOOP
        UPDATE bookings SET customer_email = customer_email WHERE id = r.id;
      END LOOP;
    END $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER leads_client ON leads`.execute(db);
  await sql`DROP FUNCTION leads_client()`.execute(db);
  await sql`DROP TRIGGER bookings_client ON bookings`.execute(db);
  await sql`DROP FUNCTION bookings_client()`.execute(db);
  await sql`ALTER TABLE leads DROP COLUMN client_id`.execute(db);
  await sql`ALTER TABLE bookings DROP COLUMN client_id`.execute(db);
  await sql`DROP FUNCTION frontdesk_client_seen(text, jsonb, boolean)`.execute(db);
  await sql`DROP FUNCTION frontdesk_client_search(text, text[])`.execute(db);
  await sql`DROP FUNCTION frontdesk_client_identity(text, text)`.execute(db);
  await sql`DROP TABLE clients`.execute(db);
  await sql`DROP FUNCTION frontdesk_client_id()`.execute(db);
  // pg_trgm stays: dropping an extension another schema object may use is not a migration's call.
}
