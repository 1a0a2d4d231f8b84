import { sql, type Kysely } from 'kysely';

// Typed against Kysely<unknown>: a migration must never depend on today's table types.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS btree_gist`.execute(db);

  await sql`
    CREATE TABLE pros (
      id text PRIMARY KEY,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      timezone text NOT NULL,
      phone text,
      email text,
      website text,
      service_zips text[] NOT NULL DEFAULT '{}' CHECK (array_position(service_zips, NULL) IS NULL),
      price_list jsonb NOT NULL,
      weekly_hours jsonb NOT NULL,
      travel_buffer_minutes integer NOT NULL DEFAULT 30 CHECK (travel_buffer_minutes BETWEEN 0 AND 240),
      slot_step_minutes integer NOT NULL DEFAULT 30 CHECK (slot_step_minutes BETWEEN 5 AND 240),
      min_notice_minutes integer NOT NULL DEFAULT 720 CHECK (min_notice_minutes BETWEEN 0 AND 20160),
      event_seq bigint NOT NULL DEFAULT 0 CHECK (event_seq >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX pros_service_zips ON pros USING gin (service_zips)`.execute(db);

  await sql`
    CREATE TABLE pro_api_keys (
      id text PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      key_hash bytea NOT NULL UNIQUE,
      key_hint text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX pro_api_keys_pro ON pro_api_keys (pro_id)`.execute(db);

  await sql`
    CREATE TABLE time_off (
      id text PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      starts_at timestamptz NOT NULL,
      ends_at timestamptz NOT NULL,
      note text,
      CHECK (ends_at > starts_at)
    )`.execute(db);
  await sql`CREATE INDEX time_off_pro_range ON time_off USING gist (pro_id, tstzrange(starts_at, ends_at))`.execute(db);

  await sql`
    CREATE TABLE leads (
      id text PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      source text NOT NULL CHECK (source IN ('marketplace_1','marketplace_2','marketplace_3','marketplace_4','marketplace_5','social_1','social_2','website','referral','other')),
      lead_ref text CHECK (length(lead_ref) <= 100),
      customer_first_name text CHECK (length(customer_first_name) <= 50),
      contact text CHECK (length(contact) <= 200),
      zip text CHECK (zip ~ '^[0-9]{5}$'),
      lead_cost_cents integer NOT NULL DEFAULT 0 CHECK (lead_cost_cents BETWEEN 0 AND 100000),
      bedrooms integer CHECK (bedrooms BETWEEN 0 AND 10),
      bathrooms numeric(3,1) CHECK (bathrooms BETWEEN 1 AND 10 AND bathrooms * 2 = trunc(bathrooms * 2)),
      clean_type text NOT NULL DEFAULT 'standard',
      sqft integer CHECK (sqft BETWEEN 200 AND 15000),
      frequency text NOT NULL DEFAULT 'once',
      add_ons text[] NOT NULL DEFAULT '{}',
      pets boolean NOT NULL DEFAULT false,
      status text NOT NULL DEFAULT 'quoted' CHECK (status IN ('quoted','booked','lost')),
      contacted boolean NOT NULL DEFAULT false,
      follow_ups_sent integer NOT NULL DEFAULT 0 CHECK (follow_ups_sent >= 0),
      last_follow_up_at timestamptz,
      quote_total_cents integer,
      quote jsonb,
      notes text CHECK (length(notes) <= 500),
      flag_reason text CHECK (flag_reason IN ('out_of_area','duplicate','wrong_contact','no_response','not_requested','service_not_offered')),
      flag_evidence jsonb,
      flagged_at timestamptz,
      quoted_at timestamptz NOT NULL DEFAULT now(),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      -- Platform leads never carry the customer's name or contact (contract rule 6).
      CONSTRAINT leads_platform_privacy CHECK (
        source NOT LIKE 'marketplace_%' OR (customer_first_name IS NULL AND contact IS NULL)
      )
    )`.execute(db);
  await sql`CREATE INDEX leads_pro_created ON leads (pro_id, created_at)`.execute(db);

  await sql`
    CREATE TABLE bookings (
      id text PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      lead_id text REFERENCES leads (id) ON DELETE SET NULL,
      channel text NOT NULL CHECK (channel IN ('pro','book')),
      client_name text CHECK (length(client_name) <= 100),
      status text NOT NULL DEFAULT 'booked' CHECK (status IN ('booked','cancelled','no_show')),
      starts_at timestamptz NOT NULL,
      ends_at timestamptz NOT NULL,
      blocked_until timestamptz NOT NULL,
      customer_name text NOT NULL CHECK (length(customer_name) BETWEEN 1 AND 100),
      customer_phone text CHECK (length(customer_phone) <= 30),
      customer_email text CHECK (length(customer_email) <= 200),
      address text NOT NULL CHECK (length(address) BETWEEN 3 AND 300),
      zip text NOT NULL CHECK (zip ~ '^[0-9]{5}$'),
      notes text CHECK (length(notes) <= 500),
      access_details text CHECK (length(access_details) <= 500),
      bedrooms integer NOT NULL CHECK (bedrooms BETWEEN 0 AND 10),
      bathrooms numeric(3,1) NOT NULL CHECK (bathrooms BETWEEN 1 AND 10 AND bathrooms * 2 = trunc(bathrooms * 2)),
      clean_type text NOT NULL,
      sqft integer CHECK (sqft BETWEEN 200 AND 15000),
      frequency text NOT NULL,
      add_ons text[] NOT NULL DEFAULT '{}',
      pets boolean NOT NULL DEFAULT false,
      price_cents integer NOT NULL CHECK (price_cents >= 0),
      quote jsonb NOT NULL,
      fee_cents integer NOT NULL DEFAULT 0 CHECK (fee_cents >= 0),
      fee_waived_at timestamptz,
      manage_token_hash bytea UNIQUE,
      cancelled_at timestamptz,
      cancelled_by text,
      no_show_reported_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (ends_at > starts_at AND blocked_until >= ends_at),
      CHECK (customer_phone IS NOT NULL OR customer_email IS NOT NULL),
      CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL)),
      -- One crew per pro: no two live bookings overlap, travel buffer included.
      CONSTRAINT bookings_no_overlap EXCLUDE USING gist (
        pro_id WITH =,
        tstzrange(starts_at, blocked_until, '[)') WITH &&
      ) WHERE (status <> 'cancelled')
    )`.execute(db);
  await sql`CREATE INDEX bookings_pro_starts ON bookings (pro_id, starts_at)`.execute(db);

  await sql`
    CREATE TABLE events (
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      seq bigint NOT NULL CHECK (seq > 0),
      kind text NOT NULL,
      payload jsonb NOT NULL,
      dedupe_key text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (pro_id, seq),
      UNIQUE (pro_id, dedupe_key)
    )`.execute(db);
  await sql`CREATE INDEX events_pro_created ON events (pro_id, created_at)`.execute(db);

  await sql`
    CREATE TABLE notifications (
      id text PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      booking_id text REFERENCES bookings (id) ON DELETE CASCADE,
      kind text NOT NULL,
      message text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      read_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX notifications_unread ON notifications (pro_id, created_at) WHERE read_at IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['notifications', 'events', 'bookings', 'leads', 'time_off', 'pro_api_keys', 'pros']) {
    await db.schema.dropTable(table).execute();
  }
}
