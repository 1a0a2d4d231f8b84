import { sql, type Kysely } from 'kysely';

// Properties (issue 37): a host's rental whose calendar feeds become turnover cleans.
// - properties: the job each turnover is (bedrooms to pets), the host as the bookings'
//   customer, the local checkout and check-in times, and whether cleans are booked or proposed.
// - property_feeds: one row per calendar address of a property, with what the last read said
//   (ETag/Last-Modified for the next conditional read, its outcome, the stays it listed, which
//   stand for it while it answers 304 or fails, how many successful reads in a row listed nothing) and the lease a worker takes to read it, so one replica reads it at a time.
// - stays: one row per guest stay seen in any of the property's feeds (the same dates in two
//   feeds are one stay), found again by UID or by dates; `gone_at` once a trusted read no longer
//   lists it. Its clean: `booking_id` (booked) or `proposed_start` (propose mode), or
//   `attention` (why no crew fits its window). UNIQUE (booking_id) and the unique live
//   (property_id, start_date, end_date) mean two replicas can never book one stay twice.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE properties (
      id text PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      name text NOT NULL,
      address text NOT NULL,
      zip text NOT NULL,
      bedrooms integer NOT NULL,
      bathrooms numeric(3, 1) NOT NULL,
      add_ons text[] NOT NULL DEFAULT '{}',
      pets boolean NOT NULL DEFAULT false,
      crew_id text REFERENCES crews (id) ON DELETE SET NULL,
      host_name text NOT NULL,
      host_phone text,
      host_email text,
      checkout_time text NOT NULL DEFAULT '11:00',
      checkin_time text NOT NULL DEFAULT '15:00',
      mode text NOT NULL DEFAULT 'book' CHECK (mode IN ('book', 'propose')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX properties_of_pro ON properties (pro_id, created_at, id)`.execute(db);
  await sql`
    CREATE TABLE property_feeds (
      id text PRIMARY KEY,
      property_id text NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      url text NOT NULL,
      position integer NOT NULL,
      etag text,
      last_modified text,
      last_read_at timestamptz,
      outcome text CHECK (outcome IN ('ok', 'unchanged', 'failing')),
      reason text,
      stays_listed integer,
      listed jsonb NOT NULL DEFAULT '[]',
      empty_reads integer NOT NULL DEFAULT 0,
      failing_told boolean NOT NULL DEFAULT false,
      next_read_at timestamptz NOT NULL DEFAULT now(),
      lease_holder text,
      lease_until timestamptz,
      UNIQUE (property_id, url)
    )`.execute(db);
  await sql`CREATE INDEX property_feeds_due ON property_feeds (next_read_at)`.execute(db);
  await sql`
    CREATE TABLE stays (
      id text PRIMARY KEY,
      property_id text NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
      uids text[] NOT NULL DEFAULT '{}',
      start_date date NOT NULL,
      end_date date NOT NULL CHECK (end_date > start_date),
      source text NOT NULL,
      first_seen_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      gone_at timestamptz,
      booking_id text UNIQUE REFERENCES bookings (id) ON DELETE SET NULL,
      proposed_start timestamptz,
      proposed_crew_id text,
      attention text
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX stays_live_dates ON stays (property_id, start_date, end_date) WHERE gone_at IS NULL`.execute(db);
  await sql`CREATE INDEX stays_by_uid ON stays USING gin (uids)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE stays`.execute(db);
  await sql`DROP TABLE property_feeds`.execute(db);
  await sql`DROP TABLE properties`.execute(db);
}
