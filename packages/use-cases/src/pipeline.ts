import {
  BAD_LEAD_REASON_TEXT,
  BOOK_HOST_FEE_CENTS,
  jobsWorth,
  monthJobs,
  monthRange,
  toUsd,
  type BadLeadReason,
  type BookedJob,
  type MonthJobs,
} from '@frontdesk/domain';
import { crewsOf, pipelineCounts, type Crew, type Db, type Pro } from '@frontdesk/db';

const perJob = (spendCents: number, booked: number) => (booked > 0 ? toUsd(Math.round(spendCents / booked)) : null);
const num = (v: unknown) => Number(v ?? 0);

/**
 * The monthly report: leads and spend by source, booked and lost, true cost per booked
 * job, possible lead credits, customers the book host brought (with fees after
 * cancellations and waivers) and jobs booked, also per crew. What a booked job is and what
 * it is worth is the domain's monthJobs, the one rule every part of the report reads.
 */
export async function pipelineReport(db: Db, pro: Pro, month: string) {
  const { start, end } = monthRange(month, pro.timezone);
  const [{ leads, flagged, visits }, crews] = await Promise.all([pipelineCounts(db, pro.id, start, end), crewsOf(db, pro.id)]);
  const jobs = monthJobs(
    visits.map((v) => ({
      job: v.series_id ?? v.id,
      channel: v.channel,
      status: v.status,
      priceCents: v.price_cents,
      feeCents: v.fee_cents,
      feeWaived: v.fee_waived,
      crewId: v.crew_id,
      crewName: v.crew_name,
      startsAt: v.starts_at,
    })),
  );
  return {
    month,
    timezone: pro.timezone,
    leads: leadsReport(leads),
    possible_lead_credits: creditsReport(flagged),
    ...bookingsReport(jobs, crews),
  };
}

/**
 * Booked jobs per crew, each on the crew of its first booked visit (so the lines add up to
 * the totals): every crew of the business in crew order, zero when it has none, then a
 * removed crew that still has jobs that month, by name.
 */
function crewsReport(booked: BookedJob[], crews: Crew[]) {
  const line = (crewId: string, name: string) => {
    const { jobs, worthCents } = jobsWorth(booked.filter((j) => j.crewId === crewId));
    return { crew_id: crewId, crew_name: name, jobs, value: toUsd(worthCents) };
  };
  const current = new Set(crews.map((c) => c.id));
  const removed = new Map(booked.filter((j) => !current.has(j.crewId)).map((j) => [j.crewId, j.crewName]));
  const others = [...removed].sort(([, a], [, b]) => a.localeCompare(b));
  return [...crews.map((c) => line(c.id, c.name)), ...others.map(([id, name]) => line(id, name))];
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
      reason: c.flag_reason as BadLeadReason,
      reason_text: BAD_LEAD_REASON_TEXT[c.flag_reason as BadLeadReason],
    })),
  };
}

/** Customers the book host brought (with fees after cancellations and waivers) and every job booked. */
function bookingsReport(jobs: MonthJobs, crews: Crew[]) {
  const all = jobsWorth(jobs.booked);
  const byCustomers = jobsWorth(jobs.booked.filter((j) => j.channel === 'book'));
  const ofCustomers = (list: { channel: string }[]) => list.filter((j) => j.channel === 'book').length;
  return {
    customers_brought_by_service: {
      bookings: byCustomers.jobs,
      value: toUsd(byCustomers.worthCents),
      cancelled: ofCustomers(jobs.cancelled),
      fees_waived_for_no_shows: jobs.feesWaived,
      fee_per_booking: toUsd(BOOK_HOST_FEE_CENTS),
      fees_due: toUsd(jobs.feesDueCents),
    },
    jobs_booked: {
      total: all.jobs,
      value: toUsd(all.worthCents),
      by_business: all.jobs - byCustomers.jobs,
      by_customers_through_service: byCustomers.jobs,
      cancelled: jobs.cancelled.length,
      no_shows: jobs.noShows.length,
      by_crew: crewsReport(jobs.booked, crews),
    },
  };
}

export type PipelineReport = Awaited<ReturnType<typeof pipelineReport>>;
