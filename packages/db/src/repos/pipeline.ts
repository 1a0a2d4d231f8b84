import { sql } from 'kysely';
import type { Db } from '../connect';

/**
 * What the monthly report counts, for one pro and [start, end): leads by source, paid leads
 * flagged bad, bookings by channel and status, and live bookings by crew. One query each, run
 * side by side.
 */
export async function pipelineCounts(db: Db, proId: string, start: Date, end: Date) {
  const [leads, flagged, bookings, byCrew] = await Promise.all([
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
    db
      .selectFrom('bookings')
      .select((eb) => [
        'channel',
        'status',
        // A series is one booked job, however many visits it holds.
        sql<number>`count(DISTINCT coalesce(series_id, id))`.as('n'),
        eb.fn.coalesce(eb.fn.sum<number>('price_cents'), sql<number>`0`).as('value'),
        sql<number>`coalesce(sum(fee_cents) FILTER (WHERE fee_waived_at IS NULL), 0)`.as('fees'),
        sql<number>`count(*) FILTER (WHERE fee_waived_at IS NOT NULL)`.as('waived'),
      ])
      .where('pro_id', '=', proId)
      .where('created_at', '>=', start)
      .where('created_at', '<', end)
      .groupBy(['channel', 'status'])
      .execute(),
    db
      .selectFrom('bookings')
      .select((eb) => [
        'crew_id',
        'crew_name',
        sql<number>`count(DISTINCT coalesce(series_id, id))`.as('n'),
        eb.fn.coalesce(eb.fn.sum<number>('price_cents'), sql<number>`0`).as('value'),
      ])
      .where('pro_id', '=', proId)
      .where('status', '<>', 'cancelled')
      .where('created_at', '>=', start)
      .where('created_at', '<', end)
      .groupBy(['crew_id', 'crew_name'])
      .execute(),
  ]);
  return { leads, flagged, bookings, byCrew };
}

export type PipelineCounts = Awaited<ReturnType<typeof pipelineCounts>>;
