import { sql } from 'kysely';
import type { Db } from '../connect';
import type { Booking } from '../tables/bookings';
import type { Pro } from '../tables/pros';

/** Marks a job's "on my way" as sent, only if it was not: the job, or undefined when it had been (at most once per job). */
export async function markOnMyWaySent(trx: Db, bookingId: string, now: Date): Promise<Booking | undefined> {
  return trx
    .updateTable('bookings')
    .set({ on_my_way_sent_at: now, updated_at: now })
    .where('id', '=', bookingId)
    .where('on_my_way_sent_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Businesses with an agenda time whose local time now is at or past it and whose agenda of
 * their local day is not made yet: the ones an agenda may be due for (the domain decides).
 */
export async function businessesAwaitingAgenda(db: Db, now: Date, limit = 500): Promise<Pro[]> {
  const local = sql`(${now}::timestamptz AT TIME ZONE pros.timezone)`;
  return db
    .selectFrom('pros')
    .selectAll()
    .where('owner_agenda', 'is not', null)
    .where(sql<boolean>`${local}::time >= owner_agenda::time`)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('owner_agendas as a')
            .select('a.pro_id')
            .whereRef('a.pro_id', '=', 'pros.id')
            .where(sql<boolean>`a.local_date = ${local}::date`),
        ),
      ),
    )
    .limit(limit)
    .execute();
}

/** Records a business's agenda of a local day as made; false when it already was (another process made it first). */
export async function recordAgenda(trx: Db, a: { proId: string; day: string; jobs: number; mails: number; now: Date }): Promise<boolean> {
  const row = await trx
    .insertInto('owner_agendas')
    .values({ pro_id: a.proId, local_date: a.day, jobs: a.jobs, mails: a.mails, made_at: a.now })
    .onConflict((oc) => oc.columns(['pro_id', 'local_date']).doNothing())
    .returning('pro_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** A business's live jobs starting in [from, to), soonest first, with what the agenda lists of each. */
export async function agendaJobs(db: Db, proId: string, range: { from: Date; to: Date }) {
  return db
    .selectFrom('bookings')
    .select(['id', 'starts_at', 'customer_name', 'customer_phone', 'address', 'zip', 'access_details', 'crew_id', 'crew_name'])
    .where('pro_id', '=', proId)
    .where('status', '=', 'booked')
    .where('starts_at', '>=', range.from)
    .where('starts_at', '<', range.to)
    .orderBy('starts_at')
    .execute();
}

/** A business's crews that have an email for their own agenda. */
export async function crewsWithEmail(db: Db, proId: string) {
  return db
    .selectFrom('crews')
    .select(['id', 'name', 'email'])
    .where('pro_id', '=', proId)
    .where('removed_at', 'is', null)
    .where('email', 'is not', null)
    .execute();
}
