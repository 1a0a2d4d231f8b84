import { sql } from 'kysely';
import type { Db } from '../connect';
import { hashSecret, newToken } from '../secrets';
import type { Booking } from '../tables/bookings';
import type { CustomerMessageKind } from '../tables/customer-messages';

/** A live job with a customer email whose reminders may be owed, with what its business set and which were sent for its start. */
export type ReminderCandidate = Booking & { reminder_hours: number[]; reminders_set_at: Date | null; sent_offsets: number[] };

/**
 * Live jobs with a customer email, not started, with a reminder whose time has come (start
 * minus its hours) and that is neither sent nor skipped for their current start.
 */
export async function reminderCandidates(db: Db, now: Date, limit = 500): Promise<ReminderCandidate[]> {
  const rows = await sql<ReminderCandidate>`
    SELECT b.*, p.customer_reminder_hours AS reminder_hours, p.customers_set_at AS reminders_set_at, s.sent_offsets
      FROM bookings b
      JOIN (SELECT id, customer_reminder_hours, customer_reminders_set_at AS customers_set_at,
                   (SELECT max(h) FROM unnest(customer_reminder_hours) h) AS farthest
              FROM pros WHERE cardinality(customer_reminder_hours) > 0) p ON p.id = b.pro_id
      CROSS JOIN LATERAL (
        SELECT coalesce(array_agg(m.offset_hours), '{}')::integer[] AS sent_offsets
          FROM customer_messages m
         WHERE m.booking_id = b.id AND m.kind = 'reminder' AND m.starts_at = b.starts_at) s
     WHERE b.status = 'booked' AND b.customer_email IS NOT NULL
       AND b.starts_at > ${now} AND b.starts_at <= ${now}::timestamptz + make_interval(hours => p.farthest)
       AND EXISTS (SELECT 1 FROM unnest(p.customer_reminder_hours) h
                    WHERE NOT (h = ANY (s.sent_offsets)) AND b.starts_at - make_interval(hours => h) <= ${now})
     ORDER BY b.starts_at
     LIMIT ${limit}`.execute(db);
  return rows.rows;
}

/** A finished job whose business asks for reviews, with no review request yet (sent or skipped). */
export type ReviewCandidate = Booking & { review_delay_hours: number; review_request_set_at: Date | null };

export async function reviewCandidates(db: Db, now: Date, o: { lookBackHours: number; limit?: number }): Promise<ReviewCandidate[]> {
  const rows = await sql<ReviewCandidate>`
    SELECT b.*, p.review_delay_hours, p.review_request_set_at
      FROM bookings b JOIN pros p ON p.id = b.pro_id
     WHERE p.review_link IS NOT NULL AND b.status = 'booked' AND b.customer_email IS NOT NULL
       AND b.ends_at <= ${now} AND b.ends_at > ${now}::timestamptz - make_interval(hours => ${o.lookBackHours})
       AND NOT EXISTS (SELECT 1 FROM customer_messages m WHERE m.booking_id = b.id AND m.kind = 'review_request')
     ORDER BY b.ends_at
     LIMIT ${o.limit ?? 500}`.execute(db);
  return rows.rows;
}

/**
 * Claims a message for a job inside the caller's transaction: true for the one transaction
 * that writes it (whichever replica comes first), false once it exists.
 */
export async function claimCustomerMessage(
  trx: Db,
  m: { proId: string; bookingId: string; kind: CustomerMessageKind; offsetHours: number; startsAt: Date; now: Date; skipped: boolean },
): Promise<boolean> {
  const row = await trx
    .insertInto('customer_messages')
    .values({ pro_id: m.proId, booking_id: m.bookingId, kind: m.kind, offset_hours: m.offsetHours, starts_at: m.startsAt, sent_at: m.now, skipped: m.skipped })
    .onConflict((oc) => oc.columns(['booking_id', 'kind', 'offset_hours', 'starts_at']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The messages that went out for a job, oldest first. */
export async function messagesSentFor(db: Db, proId: string, bookingId: string) {
  return db
    .selectFrom('customer_messages')
    .select(['kind', 'offset_hours', 'starts_at', 'sent_at'])
    .where('pro_id', '=', proId)
    .where('booking_id', '=', bookingId)
    .where('skipped', '=', false)
    .orderBy('sent_at')
    .execute();
}

const normal = (email: string) => email.trim().toLowerCase();

/** A new unsubscribe link's token for a business and an address (only its hash is kept). */
export async function mintUnsubscribeToken(trx: Db, o: { proId: string; email: string; now: Date }): Promise<string> {
  const token = newToken();
  await trx
    .insertInto('unsubscribe_links')
    .values({ token_hash: hashSecret(token), pro_id: o.proId, email: normal(o.email), created_at: o.now })
    .execute();
  return token;
}

/** The business and address an unsubscribe token names, with the business's name and whether it already took effect. */
export async function unsubscribeLinkOf(db: Db, token: string) {
  return db
    .selectFrom('unsubscribe_links as l')
    .innerJoin('pros as p', 'p.id', 'l.pro_id')
    .leftJoin('mail_unsubscribes as u', (j) => j.onRef('u.pro_id', '=', 'l.pro_id').onRef('u.email', '=', 'l.email'))
    .select(['l.pro_id', 'l.email', 'p.name as pro_name', 'u.created_at as unsubscribed_at'])
    .where('l.token_hash', '=', hashSecret(token))
    .executeTakeFirst();
}

/** Records that an address wants no more routine mail from a business (once; asking again changes nothing). */
export async function addUnsubscribe(db: Db, o: { proId: string; email: string; now: Date }): Promise<void> {
  await db
    .insertInto('mail_unsubscribes')
    .values({ pro_id: o.proId, email: normal(o.email), created_at: o.now })
    .onConflict((oc) => oc.columns(['pro_id', 'email']).doNothing())
    .execute();
}

/** Whether an address asked a business for no more routine mail. */
export async function isUnsubscribed(db: Db, proId: string, email: string): Promise<boolean> {
  const row = await db.selectFrom('mail_unsubscribes').select('email').where('pro_id', '=', proId).where('email', '=', normal(email)).executeTakeFirst();
  return row !== undefined;
}
