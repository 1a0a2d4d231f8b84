import { sql, type Kysely } from 'kysely';

// What typed clients and calendars read (issue 27).
// - bookings.revision: the job's version, raised in the same statement that moves, cancels or
//   marks it a no-show, so the calendar feed and a manage page's .ics agree on SEQUENCE (RFC
//   5545 §3.8.7.4) whichever process reads it. It used to be derived from the seconds between
//   booking and last change; a job's revision starts at the greater of that and what it has
//   been through (its moves, and a cancel or no-show), so no copy a calendar already holds
//   outranks the next change.
// - Events written before crews named the crew only when they named a booking: a series'
//   events and today's jobs get the crew of their booking (a series' first visit) too, so every
//   event of a kind has the fields its schema declares.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE bookings ADD COLUMN revision integer NOT NULL DEFAULT 0`.execute(db);
  await sql`
    UPDATE bookings b SET revision = greatest(
      CASE WHEN b.status = 'booked' THEN 0 ELSE 1 END,
      floor(extract(epoch FROM b.updated_at - b.created_at))::int,
      (SELECT count(*)::int FROM events e
        WHERE e.pro_id = b.pro_id AND e.kind = 'booking.rescheduled' AND e.payload->>'booking_id' = b.id)
        + CASE WHEN b.status = 'booked' THEN 0 ELSE 1 END)`.execute(db);

  await sql`
    UPDATE events e SET payload = e.payload || jsonb_build_object('crew_id', b.crew_id, 'crew_name', b.crew_name)
      FROM series s JOIN bookings b ON b.id = s.template_booking_id
     WHERE e.kind IN ('series.created', 'series.cancelled') AND NOT e.payload ? 'crew_id'
       AND s.id = e.payload->>'series_id' AND s.pro_id = e.pro_id`.execute(db);
  await sql`
    UPDATE events e SET payload = jsonb_set(e.payload, '{jobs}', (
      SELECT coalesce(jsonb_agg(j.job || jsonb_build_object('crew_id', b.crew_id, 'crew_name', b.crew_name) ORDER BY j.n), '[]'::jsonb)
        FROM jsonb_array_elements(e.payload->'jobs') WITH ORDINALITY AS j(job, n)
        JOIN bookings b ON b.id = j.job->>'booking_id'))
     WHERE e.kind = 'jobs.today'
       AND EXISTS (SELECT 1 FROM jsonb_array_elements(e.payload->'jobs') j(job) WHERE NOT j.job ? 'crew_id')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The crews the events gained stay: they are true, and the crews migration's down keeps them too.
  await sql`ALTER TABLE bookings DROP COLUMN revision`.execute(db);
}
