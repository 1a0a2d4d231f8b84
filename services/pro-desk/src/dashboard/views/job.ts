import { CLEAN_TYPE_LABELS, NO_TIMES_THESE_DAYS, formatLabel, jobStaysBetween, type LocalDate, type MoveWindow } from '@frontdesk/domain';
import type { Booking, Pro } from '@frontdesk/db';
import { html, moveDaysLinks, moveDaysSaid, problemLine, startChoices, type Html, type Problem } from '@frontdesk/http';
import { csrfField, postButton, type Signed } from '../layout';
import { jobLink } from './job-card';
import { typedText } from './typed-text';

/** A job's confirmation pages: what cancelling, moving or a no-show will do, before it is done. */

const what = (b: Booking, pro: Pro, now: Date): Html =>
  html`${CLEAN_TYPE_LABELS[b.clean_type]} for ${typedText(b.customer_name)} on ${formatLabel(b.starts_at, pro.timezone, now)}, ${typedText(b.address)}`;
const back = html`<p><a href="/dashboard/schedule">Back to your schedule</a></p>`;

export function cancelConfirmView(s: Signed, b: Booking, o: { now: Date; problem?: Problem }): Html {
  return html`${problemLine(o.problem)}
    <p><strong>${what(b, s.pro, o.now)}</strong></p>
    <p>
      Cancelling takes this job off your schedule and offers its time to other customers again. No fee is charged. We do not tell ${typedText(b.customer_name)}:
      you let them know.
    </p>
    ${postButton(s, { action: jobLink(b.id, 'cancel'), label: 'Cancel this job' })} ${back}`;
}

export function noShowConfirmView(s: Signed, b: Booking, o: { now: Date; problem?: Problem }): Html {
  const fee = b.channel === 'book' ? ' The booking fee for this customer booking is waived.' : '';
  return html`${problemLine(o.problem)}
    <p><strong>${what(b, s.pro, o.now)}</strong></p>
    <p>This records that ${typedText(b.customer_name)} neither showed up nor cancelled. The job stays in your records as a no-show.${fee}</p>
    ${postButton(s, { action: jobLink(b.id, 'no-show'), label: 'Report the no-show' })} ${back}`;
}

/** Where a move page was: the week picked with its links, if any (`?from=`). */
const withFrom = (path: string, from: string | undefined) => (from ? `${path}?from=${encodeURIComponent(from)}` : path);

/**
 * Open times grouped by their local day, each a radio button (none picked until the owner
 * picks one), on the days around the job's own date or the week picked, with earlier and
 * later days a link away; for a visit of a series, the visits it stays between.
 */
export function moveTimesView(
  s: Signed,
  b: Booking,
  o: {
    now: Date;
    times: { start: string; label: string }[];
    days: MoveWindow;
    jobDay: LocalDate;
    neighbours: { before?: string | undefined; after?: string | undefined };
    problem?: Problem;
  },
): Html {
  const path = jobLink(b.id, 'move');
  const hrefOf = (from?: LocalDate) => withFrom(path, from);
  const stays = jobStaysBetween(o.neighbours.before, o.neighbours.after);
  return html`${problemLine(o.problem)}
    <p><strong>${what(b, s.pro, o.now)}</strong></p>
    ${stays && html`<p>${stays}</p>`} ${moveDaysSaid(o.days, o.jobDay)}
    ${
      o.times.length
        ? html`<form method="get" action="${path}/confirm">
            ${!o.days.around && html`<input type="hidden" name="from" value="${o.days.from}" />`} ${startChoices(o.times)}
            <button type="submit">Next: check the move</button>
          </form>`
        : html`<p>${NO_TIMES_THESE_DAYS}</p>`
    }
    ${moveDaysLinks(o.days, o.jobDay, hrefOf)} ${back}`;
}

export function moveConfirmView(s: Signed, b: Booking, o: { now: Date; start: string; label: string; from?: string | undefined }): Html {
  return html`<p>
      Move <strong>${what(b, s.pro, o.now)}</strong> to <strong>${o.label}</strong>? The price stays as booked and the old time is offered to other customers
      again. We do not tell ${typedText(b.customer_name)}: you let them know.
    </p>
    <form method="post" action="${jobLink(b.id, 'move')}">
      ${csrfField(s)}<input type="hidden" name="start" value="${o.start}" />${o.from && html`<input type="hidden" name="from" value="${o.from}" />`}<button
        type="submit"
      >
        Move this job
      </button>
    </form>
    <p><a href="${withFrom(jobLink(b.id, 'move'), o.from)}">Pick another time</a></p>
    ${back}`;
}
