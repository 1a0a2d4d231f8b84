import type { PipelineReport } from '@frontdesk/use-cases';
import { html, type Html } from '@frontdesk/http';
import { count } from '../layout';

/** Month (`/dashboard/month`): leads and spend by platform, jobs booked (per crew with several), fees, possible lead credits. */

/** Spend by platform as bars: plain SVG attributes, so the page needs no script or style. */
function spendChart(p: PipelineReport): Html {
  const rows = p.leads.by_source.filter((s) => s.leads > 0);
  if (rows.length === 0) return html``;
  const max = Math.max(1, ...rows.map((r) => r.spend));
  const bar = (spend: number) => Math.max(2, Math.round((spend / max) * 160));
  const bars = rows.map(
    (r, i) =>
      html`<text x="0" y="${i * 28 + 18}" font-size="13" fill="#1d2430">${r.source}</text
        ><rect x="120" y="${i * 28 + 6}" width="${bar(r.spend)}" height="16" fill="#3a6ea5"></rect
        ><text x="${128 + bar(r.spend)}" y="${i * 28 + 18}" font-size="13" fill="#1d2430">$${r.spend}</text>`,
  );
  const height = rows.length * 28;
  return html`<svg role="img" aria-label="Lead spend by platform this month" viewBox="0 0 340 ${height}" width="100%" height="${height}">${bars}</svg>`;
}

function sourceTable(p: PipelineReport): Html {
  if (p.leads.by_source.length === 0) return html``;
  const rows = p.leads.by_source.map(
    (s) =>
      html`<tr>
        <td>${s.source}</td>
        <td>${s.leads}</td>
        <td>$${s.spend}</td>
        <td>${s.booked}</td>
        <td>${s.cost_per_booked_job === null ? '–' : `$${s.cost_per_booked_job}`}</td>
      </tr>`,
  );
  return html`<table>
    <tr>
      <th scope="col">Platform</th>
      <th scope="col">Leads</th>
      <th scope="col">Spend</th>
      <th scope="col">Booked</th>
      <th scope="col">Per job</th>
    </tr>
    ${rows}
  </table>`;
}

/** Jobs booked per crew, when the business has more than one. */
function crewTable(p: PipelineReport): Html {
  const crews = p.jobs_booked.by_crew;
  if (crews.length < 2) return html``;
  const rows = crews.map(
    (c) =>
      html`<tr>
        <td><bdi>${c.crew_name}</bdi></td>
        <td>${c.jobs}</td>
        <td>$${c.value}</td>
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
  </table>`;
}

export function monthView(p: PipelineReport): Html {
  const perJob = p.leads.cost_per_booked_job === null ? '' : `: $${p.leads.cost_per_booked_job} per booked job`;
  const fees = p.customers_brought_by_service;
  return html`<section aria-labelledby="month">
    <h2 id="month">This month (${p.month})</h2>
    <p>
      ${count(p.leads.total, 'lead')}, $${p.leads.spend} spent, ${p.leads.booked} booked${perJob}. ${count(p.jobs_booked.total, 'job')} worth
      $${p.jobs_booked.value}.
    </p>
    ${spendChart(p)} ${sourceTable(p)} ${crewTable(p)}
    <p>
      Fees due to Front Desk: $${fees.fees_due} (${count(fees.bookings, 'customer booking')}). Possible lead credits: ${p.possible_lead_credits.count} worth
      $${p.possible_lead_credits.amount}.
    </p>
  </section>`;
}
