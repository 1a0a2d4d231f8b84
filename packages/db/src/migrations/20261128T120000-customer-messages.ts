import { sql, type Kysely } from 'kysely';

// Routine customer messages (issue 36): reminders before a job and a review request after it.
// - pros.customer_reminder_hours: up to two offsets (hours before the start); empty turns them
//   off. pros.review_link: the business's review page; null turns review requests off, and
//   pros.review_delay_hours says how long after the job's end the request goes.
//   *_set_at: when the owner last changed them (the workers' clock), so a reminder that came
//   due before the change is judged as "already past when set", not as a late one to catch up.
// - bookings.start_set_at: when the job's start was last written (booked or moved), by a
//   trigger copying updated_at, which every writer sets from its clock. A reminder due before
//   that instant was never owed at that time.
// - customer_messages: one row per message materialized, unique per (booking, kind, offset,
//   start): whichever replica inserts it first queues the mail in the same transaction, and a
//   job moved back to a start it was already reminded of is not reminded again. A message
//   that was owed but may not go (a platform lead's customer, an address that unsubscribed)
//   is kept as skipped, so it is judged once.
// - mail_unsubscribes: a customer's address that asked to hear no more routine mail from a
//   business (confirmations still go); unsubscribe_links: the hashed token a mail's
//   unsubscribe link carries, naming the business and the address.
// - outbox.headers, outbox.html_body: extra headers (List-Unsubscribe) and an HTML part.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE pros
      ADD COLUMN customer_reminder_hours integer[] NOT NULL DEFAULT '{24}',
      ADD COLUMN customer_reminders_set_at timestamptz,
      ADD COLUMN review_link text,
      ADD COLUMN review_delay_hours integer NOT NULL DEFAULT 2 CHECK (review_delay_hours BETWEEN 1 AND 72),
      ADD COLUMN review_request_set_at timestamptz`.execute(db);
  await sql`ALTER TABLE bookings ADD COLUMN start_set_at timestamptz`.execute(db);
  await sql`UPDATE bookings SET start_set_at = updated_at`.execute(db);
  await sql`ALTER TABLE bookings ALTER COLUMN start_set_at SET NOT NULL`.execute(db);
  await sql`
    CREATE FUNCTION frontdesk_booking_start_set() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' OR NEW.starts_at IS DISTINCT FROM OLD.starts_at THEN
        NEW.start_set_at := NEW.updated_at;
      END IF;
      RETURN NEW;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER bookings_start_set BEFORE INSERT OR UPDATE OF starts_at ON bookings
      FOR EACH ROW EXECUTE FUNCTION frontdesk_booking_start_set()`.execute(db);
  await sql`
    CREATE TABLE customer_messages (
      id bigserial PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      booking_id text NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('reminder', 'review_request')),
      offset_hours integer NOT NULL,
      starts_at timestamptz NOT NULL,
      sent_at timestamptz NOT NULL,
      skipped boolean NOT NULL DEFAULT false,
      UNIQUE (booking_id, kind, offset_hours, starts_at)
    )`.execute(db);
  await sql`CREATE INDEX customer_messages_pro ON customer_messages (pro_id, sent_at)`.execute(db);
  await sql`
    CREATE TABLE mail_unsubscribes (
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      email text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (pro_id, email)
    )`.execute(db);
  await sql`
    CREATE TABLE unsubscribe_links (
      token_hash bytea PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      email text NOT NULL,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX bookings_starts_live ON bookings (starts_at) WHERE status = 'booked' AND customer_email IS NOT NULL`.execute(db);
  await sql`ALTER TABLE outbox ADD COLUMN headers jsonb, ADD COLUMN html_body text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE outbox DROP COLUMN headers, DROP COLUMN html_body`.execute(db);
  await sql`DROP INDEX bookings_starts_live`.execute(db);
  await sql`DROP TABLE unsubscribe_links`.execute(db);
  await sql`DROP TABLE mail_unsubscribes`.execute(db);
  await sql`DROP TABLE customer_messages`.execute(db);
  await sql`DROP TRIGGER bookings_start_set ON bookings`.execute(db);
  await sql`DROP FUNCTION frontdesk_booking_start_set()`.execute(db);
  await sql`ALTER TABLE bookings DROP COLUMN start_set_at`.execute(db);
  await sql`
    ALTER TABLE pros
      DROP COLUMN customer_reminder_hours,
      DROP COLUMN customer_reminders_set_at,
      DROP COLUMN review_link,
      DROP COLUMN review_delay_hours,
      DROP COLUMN review_request_set_at`.execute(db);
}
