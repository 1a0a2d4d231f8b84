import { BOOKED_JOB_MEANS, JOBS_PER_CREW_MEANS, formatMonth, formatUsd, fromUsd, jobsNotCounted, leadSourceLabel } from '@frontdesk/domain';
import type { PipelineReport } from '@frontdesk/use-cases';
import { html, type Html } from '@frontdesk/http';
import { count } from '../layout';

/**
 * Month (`/dashboard/month`): the jobs booked and what they are worth (per crew with several),
 * the leads and their spend by platform, fees and possible lead credits. Every number is the
 * pipeline report's, so the page, the `pipeline` answer and the per-crew lines agree; what a
 * booked job is, the page says in the owner's words.
 */

/** Dollars and cents, as every other page shows money. */
const usd = (amount: number) => formatUsd(fromUsd(amount));

/** Spend by platform as bars: plain SVG attributes, so the page needs no script or style. */
function spendChart(p: PipelineReport): Html {
  const rows = p.leads.by_source.filter((s) => s.leads > 0);
  if (rows.length === 0) return html``;
  const max = Math.max(1, ...rows.map((r) => r.spend));
  const bar = (spend: number) => Math.max(2, Math.round((spend / max) * 160));
  const bars = rows.map(
    (r, i) =>
      html`<text x="0" y="${i * 28 + 18}" font-size="13" fill="#1d2430">${leadSourceLabel(r.source)}</text
        ><rect x="120" y="${i * 28 + 6}" width="${bar(r.spend)}" height="16" fill="#3a6ea5"></rect
        ><text x="${128 + bar(r.spend)}" y="${i * 28 + 18}" font-size="13" fill="#1d2430">${usd(r.spend)}</text>`,
  );
  const height = rows.length * 28;
  return html`<svg role="img" aria-label="Lead spend by platform this month" viewBox="0 0 340 ${height}" width="100%" height="${height}">${bars}</svg>`;
}

function sourceTable(p: PipelineReport): Html {
  if (p.leads.by_source.length === 0) return html``;
  const rows = p.leads.by_source.map(
    (s) =>
      html`<tr>
        <td>${leadSourceLabel(s.source)}</td>
        <td>${s.leads}</td>
        <td>${usd(s.spend)}</td>
        <td>${s.booked}</td>
        <td>${s.cost_per_booked_job === null ? '–' : usd(s.cost_per_booked_job)}</td>
      </tr>`,
  );
  return html`<table>
    <caption>
      Leads by where they came from
    </caption>
    <tr>
      <th scope="col">From</th>
      <th scope="col">Leads</th>
      <th scope="col">Spend</th>
      <th scope="col">Booked a job</th>
      <th scope="col">Spend per booked job</th>
    </tr>
    ${rows}
  </table>`;
}

/** Jobs booked per crew, when the business has more than one: the lines add up to the total row. */
function crewTable(p: PipelineReport): Html {
  const crews = p.jobs_booked.by_crew;
  if (crews.length < 2) return html``;
  const rows = crews.map(
    (c) =>
      html`<tr>
        <td><bdi>${c.crew_name}</bdi></td>
        <td>${c.jobs}</td>
        <td>${usd(c.value)}</td>
      </tr>`,
  );
  return html`<table>
      <caption>
        Jobs booked per crew
      </caption>
      <tr>
        <th scope="col">Crew</th>
        <th scope="col">Jobs</th>
        <th scope="col">Worth</th>
      </tr>
      ${rows}
      <tr>
        <th scope="row">All crews</th>
        <td>${p.jobs_booked.total}</td>
        <td>${usd(p.jobs_booked.value)}</td>
      </tr>
    </table>
    <p class="note">${JOBS_PER_CREW_MEANS}</p>`;
}

function jobsPart(p: PipelineReport): Html {
  const j = p.jobs_booked;
  const split = j.total === 0 ? '' : `: ${j.by_business} you booked, ${j.by_customers_through_service} booked by customers through Front Desk`;
  return html`<section aria-labelledby="jobs">
    <h2 id="jobs">Jobs booked</h2>
    <p><strong>${count(j.total, 'job')}</strong> worth <strong>${usd(j.value)}</strong>${split}.</p>
    <p class="note">${BOOKED_JOB_MEANS} ${jobsNotCounted(j.cancelled, j.no_shows)}</p>
    ${crewTable(p)}
  </section>`;
}

function leadsPart(p: PipelineReport): Html {
  const l = p.leads;
  const booked =
    l.booked === 0
      ? 'None of them booked yet.'
      : `${l.booked} of them booked a job${l.cost_per_booked_job === null ? '' : `: ${usd(l.cost_per_booked_job)} of spend per booked job`}.`;
  return html`<section aria-labelledby="leads">
    <h2 id="leads">Leads logged</h2>
    <p>${count(l.total, 'lead')}, ${usd(l.spend)} spent. ${l.total === 0 ? '' : booked}</p>
    ${spendChart(p)} ${sourceTable(p)}
  </section>`;
}

function feesPart(p: PipelineReport): Html {
  const f = p.customers_brought_by_service;
  const waived = f.fees_waived_for_no_shows ? `; ${f.fees_waived_for_no_shows} waived for a no-show` : '';
  const credits = p.possible_lead_credits;
  return html`<section aria-labelledby="fees">
    <h2 id="fees">Fees and credits</h2>
    <p>Fees due to Front Desk: <strong>${usd(f.fees_due)}</strong> (${usd(f.fee_per_booking)} per customer booking${waived}).</p>
    <p>Possible lead credits: ${count(credits.count, 'flagged lead')} worth ${usd(credits.amount)}.</p>
  </section>`;
}

export function monthView(p: PipelineReport): Html {
  return html`<p>${formatMonth(p.month)}, counted in your time zone.</p>
    ${jobsPart(p)} ${leadsPart(p)} ${feesPart(p)}`;
}
