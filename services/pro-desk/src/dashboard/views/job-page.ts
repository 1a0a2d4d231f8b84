import { CUSTOMER_MESSAGE_LABELS, jobStatusSaid, localDate } from '@frontdesk/domain';
import type { Booking, Pro } from '@frontdesk/db';
import type { jobMessages } from '@frontdesk/use-cases';
import { html, type Html } from '@frontdesk/http';
import { jobCard } from './job-card';

/**
 * One job's own page (`/dashboard/jobs/:id`), where a block of the board leads: the job as every
 * list shows it (its notes and access details among it), the links to move it, give it to
 * another crew, cancel it or report a no-show, and the way back to its week on the board.
 */
type SentMessage = Awaited<ReturnType<typeof jobMessages>>[number];

/** The reminders and review request that went to the job's customer, each with when it went. */
function sentMessages(messages: SentMessage[]): Html {
  const name = (m: SentMessage) => (m.kind === 'reminder' ? CUSTOMER_MESSAGE_LABELS.reminder(m.hoursBefore) : CUSTOMER_MESSAGE_LABELS.review_request());
  const items = messages.map((m) => html`<li>${name(m)}: emailed ${m.sentLabel}${m.kind === 'reminder' && html`, for ${m.forStartLabel}`}</li>`);
  return html`<h2>Messages to the customer</h2>
    ${
      messages.length
        ? html`<ul>
            ${items}
          </ul>`
        : html`<p>No reminder or review request has gone out for this job.</p>`
    }`;
}

export function jobPageView(pro: Pro, b: Booking, o: { now: Date; crews: boolean; messages: SentMessage[] }): Html {
  const status = jobStatusSaid(b.status);
  return html`${status && html`<p><strong>${status}</strong></p>`}
    <h2>When, what and where</h2>
    ${jobCard(b, pro, o.now, { crews: o.crews })} ${sentMessages(o.messages)}
    <p><a href="/dashboard/board?date=${localDate(b.starts_at, pro.timezone)}">Back to its week on the board</a></p>
    <p><a href="/dashboard/schedule">Your schedule</a></p>`;
}
