import { toUsd, wallTimeOrNextInstant, BAD_LEAD_REASON_TEXT, type BadLeadReason } from '@frontdesk/domain';
import { sql } from 'kysely';
import type { Db } from '../connect';
import type { Pro } from '../tables/pros';

/** The booking fee for a customer who books through the book host (DESIGN.md, Fees). */
export const BOOK_HOST_FEE_CENTS = 500;

function monthRange(month: string, zone: string): { start: Date; end: Date } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  return { start: wallTimeOrNextInstant(`${month}-01`, 0, zone), end: wallTimeOrNextInstant(`${next}-01`, 0, zone) };
}

const perJob = (spendCents: number, booked: number) => (booked > 0 ? toUsd(Math.round(spendCents / booked)) : null);

/**
 * The monthly report: leads and spend by source, booked and lost, true cost per booked
 * job, possible lead credits, customers the book host brought (with fees after
 * cancellations and waivers) and jobs booked. One query per table.
 */
export async function pipelineReport(db: Db, pro: Pro, month: string) {
  const { start, end } = monthRange(month, pro.timezone);
  const [leadRows, credits, bookingRows] = await Promise.all([
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
      .where('pro_id', '=', pro.id)
      .where('quoted_at', '>=', start)
      .where('quoted_at', '<', end)
      .groupBy('source')
      .orderBy('source')
      .execute(),
    db
      .selectFrom('leads')
      .select(['id', 'source', 'lead_ref', 'lead_cost_cents', 'flag_reason', 'flagged_at'])
      .where('pro_id', '=', pro.id)
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
        eb.fn.countAll<number>().as('n'),
        eb.fn.coalesce(eb.fn.sum<number>('price_cents'), sql<number>`0`).as('value'),
        sql<number>`coalesce(sum(fee_cents) FILTER (WHERE fee_waived_at IS NULL), 0)`.as('fees'),
        sql<number>`count(*) FILTER (WHERE fee_waived_at IS NOT NULL)`.as('waived'),
      ])
      .where('pro_id', '=', pro.id)
      .where('created_at', '>=', start)
      .where('created_at', '<', end)
      .groupBy(['channel', 'status'])
      .execute(),
  ]);

  const num = (v: unknown) => Number(v ?? 0);
  const bySource = leadRows.map((r) => ({
    source: r.source,
    leads: num(r.leads),
    spend: toUsd(num(r.spend)),
    booked: num(r.booked),
    lost: num(r.lost),
    open: num(r.open),
    cost_per_booked_job: perJob(num(r.spend), num(r.booked)),
  }));
  const totalSpend = leadRows.reduce((s, r) => s + num(r.spend), 0);
  const totalBooked = bySource.reduce((s, r) => s + r.booked, 0);

  const live = bookingRows.filter((r) => r.status !== 'cancelled');
  const book = bookingRows.filter((r) => r.channel === 'book');
  const bookLive = book.filter((r) => r.status !== 'cancelled');
  const sum = (rows: typeof bookingRows, f: (r: (typeof bookingRows)[number]) => number) => rows.reduce((s, r) => s + f(r), 0);
  const feesDue = sum(bookLive, (r) => num(r.fees));

  return {
    month,
    timezone: pro.timezone,
    leads: {
      total: bySource.reduce((s, r) => s + r.leads, 0),
      spend: toUsd(totalSpend),
      booked: totalBooked,
      lost: bySource.reduce((s, r) => s + r.lost, 0),
      open: bySource.reduce((s, r) => s + r.open, 0),
      cost_per_booked_job: perJob(totalSpend, totalBooked),
      by_source: bySource,
    },
    possible_lead_credits: {
      count: credits.length,
      amount: toUsd(credits.reduce((s, c) => s + c.lead_cost_cents, 0)),
      leads: credits.map((c) => ({
        lead_id: c.id,
        source: c.source,
        lead_ref: c.lead_ref,
        amount: toUsd(c.lead_cost_cents),
        reason: c.flag_reason,
        reason_text: BAD_LEAD_REASON_TEXT[c.flag_reason as BadLeadReason],
      })),
    },
    customers_brought_by_service: {
      bookings: sum(bookLive, (r) => num(r.n)),
      value: toUsd(sum(bookLive, (r) => num(r.value))),
      cancelled: sum(book.filter((r) => r.status === 'cancelled'), (r) => num(r.n)),
      fees_waived_for_no_shows: sum(bookLive, (r) => num(r.waived)),
      fee_per_booking: toUsd(BOOK_HOST_FEE_CENTS),
      fees_due: toUsd(feesDue),
    },
    jobs_booked: {
      total: sum(live, (r) => num(r.n)),
      value: toUsd(sum(live, (r) => num(r.value))),
      by_business: sum(live.filter((r) => r.channel === 'pro'), (r) => num(r.n)),
      by_customers_through_service: sum(bookLive, (r) => num(r.n)),
      cancelled: sum(bookingRows.filter((r) => r.status === 'cancelled'), (r) => num(r.n)),
    },
  };
}

export type PipelineReport = Awaited<ReturnType<typeof pipelineReport>>;
