import { jobStatusSaid, localDate } from '@frontdesk/domain';
import type { Booking, Pro } from '@frontdesk/db';
import { html, type Html } from '@frontdesk/http';
import { jobCard } from './job-card';

/**
 * One job's own page (`/dashboard/jobs/:id`), where a block of the board leads: the job as every
 * list shows it (its notes and access details among it), the links to move it, give it to
 * another crew, cancel it or report a no-show, and the way back to its week on the board.
 */
export function jobPageView(pro: Pro, b: Booking, o: { now: Date; crews: boolean }): Html {
  const status = jobStatusSaid(b.status);
  return html`${status && html`<p><strong>${status}</strong></p>`}
    <h2>When, what and where</h2>
    ${jobCard(b, pro, o.now, { crews: o.crews })}
    <p><a href="/dashboard/board?date=${localDate(b.starts_at, pro.timezone)}">Back to its week on the board</a></p>
    <p><a href="/dashboard/schedule">Your schedule</a></p>`;
}
