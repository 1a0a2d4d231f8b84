import { sql } from 'kysely';
import type { Db } from '../connect';
import type { Booking } from '../tables/bookings';
import type { Client } from '../tables/clients';
import type { Lead } from '../tables/leads';
import type { Series } from '../tables/series';

/** A client as the list shows it: who, and their jobs at a glance. */
export type ClientLine = Pick<Client, 'id' | 'name' | 'phone' | 'email' | 'address' | 'zip' | 'sort_name'> & {
  booked_jobs: number;
  next_start: Date | null;
  last_start: Date | null;
  /** The soonest start from now of a visit not cancelled: until then, next and last visit stay as read. */
  soonest_start: Date | null;
};

/** `text` as a LIKE pattern that matches it anywhere, its own wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of a business's clients in name order after `after`, each containing every term in
 * its search text (the trigram index finds them), with their booked jobs, next and last visit.
 * The page is cut first (by the name index, or the matches sorted), then each of its clients'
 * bookings are read once through `bookings_client`: no more than the page's rows are counted.
 */
export async function clientsPage(
  db: Db,
  proId: string,
  o: { terms: string[]; after: { name: string; id: string } | null; limit: number; now: Date },
): Promise<ClientLine[]> {
  let q = db.selectFrom('clients as c').where('c.pro_id', '=', proId);
  for (const term of o.terms) q = q.where('c.search', 'like', containing(term));
  if (o.after) {
    const after = o.after;
    q = q.where((eb) => eb(eb.refTuple('c.sort_name', 'c.id'), '>', eb.tuple(after.name, after.id)));
  }
  const page = q
    .select(['c.id', 'c.name', 'c.phone', 'c.email', 'c.address', 'c.zip', 'c.sort_name'])
    .orderBy('c.sort_name')
    .orderBy('c.id')
    .limit(o.limit)
    .as('p');
  return db
    .selectFrom(page)
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('bookings as b')
          .whereRef('b.client_id', '=', 'p.id')
          .select([
            sql<number>`(count(*) FILTER (WHERE b.status = 'booked'))::int`.as('booked_jobs'),
            sql<Date | null>`min(b.starts_at) FILTER (WHERE b.status = 'booked' AND b.starts_at >= ${o.now})`.as('next_start'),
            sql<Date | null>`max(b.starts_at) FILTER (WHERE b.status <> 'cancelled' AND b.starts_at < ${o.now})`.as('last_start'),
            sql<Date | null>`min(b.starts_at) FILTER (WHERE b.status <> 'cancelled' AND b.starts_at >= ${o.now})`.as('soonest_start'),
          ])
          .as('v'),
      (join) => join.onTrue(),
    )
    .selectAll('p')
    .select(['v.booked_jobs', 'v.next_start', 'v.last_start', 'v.soonest_start'])
    .orderBy('p.sort_name')
    .orderBy('p.id')
    .execute();
}

export async function getClient(db: Db, proId: string, id: string): Promise<Client | undefined> {
  return db.selectFrom('clients').selectAll().where('pro_id', '=', proId).where('id', '=', id).executeTakeFirst();
}

/** A client's visits from `now` on (soonest first) and the newest `pastLimit` before it (newest first). */
export async function clientVisits(db: Db, clientId: string, o: { now: Date; pastLimit: number }): Promise<{ upcoming: Booking[]; past: Booking[] }> {
  const of = () => db.selectFrom('bookings').selectAll().where('client_id', '=', clientId);
  const [upcoming, past] = await Promise.all([
    of().where('starts_at', '>=', o.now).orderBy('starts_at').orderBy('id').execute(),
    of().where('starts_at', '<', o.now).orderBy('starts_at', 'desc').orderBy('id', 'desc').limit(o.pastLimit).execute(),
  ]);
  return { upcoming, past };
}

/** The price of a client's booked visits (cancelled and no-show ones aside), in cents, and how many there are. */
export async function clientBookedWorth(db: Db, clientId: string): Promise<{ cents: number; visits: number }> {
  const row = await db
    .selectFrom('bookings')
    .select([sql<number>`coalesce(sum(price_cents), 0)::int`.as('cents'), sql<number>`count(*)::int`.as('visits')])
    .where('client_id', '=', clientId)
    .where('status', '=', 'booked')
    .executeTakeFirstOrThrow();
  return row;
}

/** The series any visit of the client belongs to, newest first, each with its next booked visit's start. */
export async function clientSeries(db: Db, clientId: string, now: Date): Promise<(Series & { next_start: Date | null; crew_name: string | null })[]> {
  return db
    .selectFrom('series as s')
    .selectAll('s')
    .select([
      sql<Date | null>`(SELECT min(b.starts_at) FROM bookings b WHERE b.series_id = s.id AND b.status = 'booked' AND b.starts_at >= ${now})`.as('next_start'),
      sql<
        string | null
      >`(SELECT b.crew_name FROM bookings b WHERE b.series_id = s.id AND b.status = 'booked' AND b.starts_at >= ${now} ORDER BY b.starts_at LIMIT 1)`.as(
        'crew_name',
      ),
    ])
    .where('s.id', 'in', (eb) =>
      eb.selectFrom('bookings').select('series_id').where('client_id', '=', clientId).where('series_id', 'is not', null).$narrowType<{ series_id: string }>(),
    )
    .orderBy('s.created_at', 'desc')
    .execute();
}

/** The direct leads the client was logged as, newest first. */
export async function clientLeads(db: Db, clientId: string, limit: number): Promise<Lead[]> {
  return db.selectFrom('leads').selectAll().where('client_id', '=', clientId).orderBy('created_at', 'desc').limit(limit).execute();
}

/** Replaces the owner's notes about a client; undefined when the business has no such client. */
export async function setClientNotes(db: Db, proId: string, id: string, o: { notes: string | null; now: Date }): Promise<Client | undefined> {
  return db
    .updateTable('clients')
    .set({ notes: o.notes, notes_updated_at: o.now })
    .where('pro_id', '=', proId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
