import { sql, type Kysely } from 'kysely';

// Two routine messages (issue 36).
// - bookings.on_my_way_sent_at: when the "on my way" mail to the job's customer was queued. It is
//   set once, by an UPDATE that only matches while it is null, under the job's row lock: a job
//   gets that mail at most once, whichever process, tab or retry asks.
// - pros.owner_agenda: the local time (HH:MM) the owner's morning agenda is mailed; null is off.
// - crews.email: where a crew's own agenda goes (only its jobs); null: none.
// - owner_agendas: one row per business and local day whose agenda was made, written in the
//   transaction that queues its mails; the primary key is what makes it once per day on any
//   number of replicas, across restarts.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE bookings ADD COLUMN on_my_way_sent_at timestamptz`.execute(db);
  await sql`ALTER TABLE pros ADD COLUMN owner_agenda text DEFAULT '07:00' CHECK (owner_agenda ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$')`.execute(db);
  await sql`ALTER TABLE crews ADD COLUMN email text CHECK (length(email) <= 200)`.execute(db);
  await sql`
    CREATE TABLE owner_agendas (
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      local_date date NOT NULL,
      jobs integer NOT NULL,
      mails integer NOT NULL,
      made_at timestamptz NOT NULL,
      PRIMARY KEY (pro_id, local_date)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE owner_agendas`.execute(db);
  await sql`ALTER TABLE crews DROP COLUMN email`.execute(db);
  await sql`ALTER TABLE pros DROP COLUMN owner_agenda`.execute(db);
  await sql`ALTER TABLE bookings DROP COLUMN on_my_way_sent_at`.execute(db);
}
