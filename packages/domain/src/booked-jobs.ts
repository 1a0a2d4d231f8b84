import type { Cents } from './money';

/**
 * What a month's report counts as a booked job, in one place (the pipeline answer, its per-crew
 * lines and the dashboard's Month page all read this):
 *
 * - a job is one booking act: one cleaning, or a recurring series as a whole; it belongs to the
 *   month it was booked in, never again to a month in which its series added visits;
 * - it is booked while at least one of its visits is still booked (upcoming or done); a job
 *   whose visits were all cancelled is cancelled, one whose remaining visits are no-shows is a
 *   no-show;
 * - its worth is the price of its booked visits: cancelled and no-show visits count for nothing;
 * - it counts, with its whole worth, on the crew of its first booked visit, so the per-crew
 *   lines add up to the totals.
 *
 * The book host's fees are the visits' own: a fee is due on a visit not cancelled and not
 * waived for a no-show.
 */

export type JobChannel = 'pro' | 'book';

/** One visit of a job booked in the month, as the report reads it. */
export interface MonthVisit {
  /** The job the visit belongs to: its series, or the booking itself. */
  job: string;
  channel: JobChannel;
  status: 'booked' | 'cancelled' | 'no_show';
  priceCents: Cents;
  feeCents: Cents;
  feeWaived: boolean;
  crewId: string;
  crewName: string;
  startsAt: Date;
}

/** A booked job: its worth, and the crew it counts on. */
export interface BookedJob {
  job: string;
  channel: JobChannel;
  worthCents: Cents;
  crewId: string;
  crewName: string;
}

export interface MonthJobs {
  booked: BookedJob[];
  cancelled: { channel: JobChannel }[];
  noShows: { channel: JobChannel }[];
  /** Book-host fees still due, and how many were waived for a no-show. */
  feesDueCents: Cents;
  feesWaived: number;
}

export function monthJobs(visits: readonly MonthVisit[]): MonthJobs {
  const byJob = new Map<string, MonthVisit[]>();
  for (const v of visits) byJob.set(v.job, [...(byJob.get(v.job) ?? []), v]);
  const out: MonthJobs = { booked: [], cancelled: [], noShows: [], feesDueCents: 0, feesWaived: 0 };
  for (const [job, all] of byJob) {
    const channel = all[0]!.channel;
    const live = all.filter((v) => v.status === 'booked').sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
    const first = live[0];
    if (first) out.booked.push({ job, channel, worthCents: live.reduce((s, v) => s + v.priceCents, 0), crewId: first.crewId, crewName: first.crewName });
    else if (all.some((v) => v.status === 'no_show')) out.noShows.push({ channel });
    else out.cancelled.push({ channel });
    for (const v of all) {
      if (v.status === 'cancelled') continue;
      if (v.feeWaived) out.feesWaived += 1;
      else out.feesDueCents += v.feeCents;
    }
  }
  return out;
}

/** A job's worth summed: for a list of booked jobs, their count and worth. */
export const jobsWorth = (jobs: readonly BookedJob[]): { jobs: number; worthCents: Cents } => ({
  jobs: jobs.length,
  worthCents: jobs.reduce((s, j) => s + j.worthCents, 0),
});
