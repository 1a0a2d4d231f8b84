import { sql } from 'kysely';
import type { Db } from '../connect';

/**
 * What the monthly report reads, for one pro and [start, end): leads by source, paid leads
 * flagged bad, and every visit of the jobs booked then (what counts as a booked job is the
 * domain's monthJobs). One query each, run side by side.
 */
export async function pipelineCounts(db: Db, proId: string, start: Date, end: Date) {
  const [leads, flagged, visits] = await Promise.all([
    db
      .selectFrom('leads')
      .select((eb) => [
        'source',
        eb.fn.countAll<number>().as('leads'),
        eb.fn.coalesce(eb.fn.sum<number>('lead_cost_cents'), sql<number>`0`).as('spend'),
        sql<number>`count(*) FILTER (WHERE status = 'booked')`.as('booked'),
        sql<number>`count(*) FILTER (WHERE status = 'lost')`.as('lost'),
        sql<number>`count(*) FILTER (WHERE status = 'quoted')`.as('open'),
      ])
      .where('pro_id', '=', proId)
      .where('quoted_at', '>=', start)
      .where('quoted_at', '<', end)
      .groupBy('source')
      .orderBy('source')
      .execute(),
    db
      .selectFrom('leads')
      .select(['id', 'source', 'lead_ref', 'lead_cost_cents', 'flag_reason', 'flagged_at'])
      .where('pro_id', '=', proId)
      .where('flag_reason', 'is not', null)
      .where('lead_cost_cents', '>', 0)
      .where('quoted_at', '>=', start)
      .where('quoted_at', '<', end)
      .orderBy('quoted_at')
      .execute(),
    // Every visit of each job booked in [start, end): a series belongs to the month it was
    // booked in (its row's created_at), not to the months its later visits were added in.
    db
      .selectFrom('bookings as b')
      .leftJoin('series as s', 's.id', 'b.series_id')
      .select([
        'b.id',
        'b.series_id',
        'b.channel',
        'b.status',
        'b.price_cents',
        'b.fee_cents',
        sql<boolean>`b.fee_waived_at IS NOT NULL`.as('fee_waived'),
        'b.crew_id',
        'b.crew_name',
        'b.starts_at',
      ])
      .where('b.pro_id', '=', proId)
      .where(sql<Date>`coalesce(s.created_at, b.created_at)`, '>=', start)
      .where(sql<Date>`coalesce(s.created_at, b.created_at)`, '<', end)
      .orderBy('b.starts_at')
      .execute(),
  ]);
  return { leads, flagged, visits };
}

export type PipelineCounts = Awaited<ReturnType<typeof pipelineCounts>>;
