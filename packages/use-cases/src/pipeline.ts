import { BAD_LEAD_REASON_TEXT, BOOK_HOST_FEE_CENTS, monthRange, toUsd, type BadLeadReason } from '@frontdesk/domain';
import { crewsOf, pipelineCounts, type Crew, type Db, type Pro } from '@frontdesk/db';

const perJob = (spendCents: number, booked: number) => (booked > 0 ? toUsd(Math.round(spendCents / booked)) : null);
const num = (v: unknown) => Number(v ?? 0);

/**
 * The monthly report: leads and spend by source, booked and lost, true cost per booked
 * job, possible lead credits, customers the book host brought (with fees after
 * cancellations and waivers) and jobs booked, also per crew.
 */
export async function pipelineReport(db: Db, pro: Pro, month: string) {
  const { start, end } = monthRange(month, pro.timezone);
  const [{ leads, flagged, bookings, byCrew }, crews] = await Promise.all([pipelineCounts(db, pro.id, start, end), crewsOf(db, pro.id)]);
  const report = bookingsReport(bookings);
  return {
    month,
    timezone: pro.timezone,
    leads: leadsReport(leads),
    possible_lead_credits: creditsReport(flagged),
    ...report,
    jobs_booked: { ...report.jobs_booked, by_crew: crewsReport(byCrew, crews) },
  };
}

/**
 * Jobs booked that month per crew (not cancelled; a series counts once on each crew doing
 * visits of it): every crew of the business in crew order, zero when it booked none, then a
 * removed crew that still did jobs that month, by name.
 */
function crewsReport(rows: Counts['byCrew'], crews: Crew[]) {
  const counted = new Map(rows.map((r) => [r.crew_id, r]));
  const line = (crewId: string, name: string) => {
    const r = counted.get(crewId);
    return { crew_id: crewId, crew_name: name, jobs: num(r?.n), value: toUsd(num(r?.value)) };
  };
  const current = new Set(crews.map((c) => c.id));
  const removed = rows.filter((r) => !current.has(r.crew_id)).sort((a, b) => a.crew_name.localeCompare(b.crew_name));
  return [...crews.map((c) => line(c.id, c.name)), ...removed.map((r) => line(r.crew_id, r.crew_name))];
}

type Counts = Awaited<ReturnType<typeof pipelineCounts>>;

/** Leads and spend by source, booked and lost, and the true cost per booked job. */
function leadsReport(leadRows: Counts['leads']) {
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
  return {
    total: bySource.reduce((s, r) => s + r.leads, 0),
    spend: toUsd(totalSpend),
    booked: totalBooked,
    lost: bySource.reduce((s, r) => s + r.lost, 0),
    open: bySource.reduce((s, r) => s + r.open, 0),
    cost_per_booked_job: perJob(totalSpend, totalBooked),
    by_source: bySource,
  };
}

/** Flagged paid leads: what the platforms may credit back. */
function creditsReport(credits: Counts['flagged']) {
  return {
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
  };
}

/** Customers the book host brought (with fees after cancellations and waivers) and every job booked. */
function bookingsReport(bookingRows: Counts['bookings']) {
  type Row = (typeof bookingRows)[number];
  const sum = (rows: Row[], f: (r: Row) => number) => rows.reduce((s, r) => s + f(r), 0);
  const count = (rows: Row[]) => sum(rows, (r) => num(r.n));
  const live = bookingRows.filter((r) => r.status !== 'cancelled');
  const book = bookingRows.filter((r) => r.channel === 'book');
  const bookLive = book.filter((r) => r.status !== 'cancelled');
  return {
    customers_brought_by_service: {
      bookings: count(bookLive),
      value: toUsd(sum(bookLive, (r) => num(r.value))),
      cancelled: count(book.filter((r) => r.status === 'cancelled')),
      fees_waived_for_no_shows: sum(bookLive, (r) => num(r.waived)),
      fee_per_booking: toUsd(BOOK_HOST_FEE_CENTS),
      fees_due: toUsd(sum(bookLive, (r) => num(r.fees))),
    },
    jobs_booked: {
      total: count(live),
      value: toUsd(sum(live, (r) => num(r.value))),
      by_business: count(live.filter((r) => r.channel === 'pro')),
      by_customers_through_service: count(bookLive),
      cancelled: count(bookingRows.filter((r) => r.status === 'cancelled')),
    },
  };
}

export type PipelineReport = Awaited<ReturnType<typeof pipelineReport>>;
