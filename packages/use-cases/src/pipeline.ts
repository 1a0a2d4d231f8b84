import { BAD_LEAD_REASON_TEXT, BOOK_HOST_FEE_CENTS, monthRange, toUsd, type BadLeadReason } from '@frontdesk/domain';
import { pipelineCounts, type Db, type Pro } from '@frontdesk/db';

const perJob = (spendCents: number, booked: number) => (booked > 0 ? toUsd(Math.round(spendCents / booked)) : null);
const num = (v: unknown) => Number(v ?? 0);

/**
 * The monthly report: leads and spend by source, booked and lost, true cost per booked
 * job, possible lead credits, customers the book host brought (with fees after
 * cancellations and waivers) and jobs booked.
 */
export async function pipelineReport(db: Db, pro: Pro, month: string) {
  const { start, end } = monthRange(month, pro.timezone);
  const { leads: leadRows, flagged: credits, bookings: bookingRows } = await pipelineCounts(db, pro.id, start, end);

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

  type Row = (typeof bookingRows)[number];
  const sum = (rows: Row[], f: (r: Row) => number) => rows.reduce((s, r) => s + f(r), 0);
  const live = bookingRows.filter((r) => r.status !== 'cancelled');
  const book = bookingRows.filter((r) => r.channel === 'book');
  const bookLive = book.filter((r) => r.status !== 'cancelled');

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
      cancelled: sum(
        book.filter((r) => r.status === 'cancelled'),
        (r) => num(r.n),
      ),
      fees_waived_for_no_shows: sum(bookLive, (r) => num(r.waived)),
      fee_per_booking: toUsd(BOOK_HOST_FEE_CENTS),
      fees_due: toUsd(sum(bookLive, (r) => num(r.fees))),
    },
    jobs_booked: {
      total: sum(live, (r) => num(r.n)),
      value: toUsd(sum(live, (r) => num(r.value))),
      by_business: sum(
        live.filter((r) => r.channel === 'pro'),
        (r) => num(r.n),
      ),
      by_customers_through_service: sum(bookLive, (r) => num(r.n)),
      cancelled: sum(
        bookingRows.filter((r) => r.status === 'cancelled'),
        (r) => num(r.n),
      ),
    },
  };
}

export type PipelineReport = Awaited<ReturnType<typeof pipelineReport>>;
