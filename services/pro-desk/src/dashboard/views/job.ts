import {
  CLEAN_TYPE_LABELS,
  NEAREST_MOVE_TIMES,
  NO_TIMES_THESE_DAYS,
  businessCancelNotMailed,
  emailNewTimeOffer,
  formatLabel,
  jobStaysBetween,
  laterVisitsWillMove,
  nearestFirst,
  reachCustomer,
  type LocalDate,
  type MoveWindow,
} from '@frontdesk/domain';
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
    <p>Cancelling takes this job off your schedule and offers its time to other customers again. No fee is charged.</p>
    <p>${typedText(businessCancelNotMailed(b.customer_name, reachCustomer(b.customer_phone, b.customer_email)))}</p>
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

/** What a move of a visit of a plan can take along: how many later visits are booked (none for a one-time job). */
export interface MoveAlong {
  later: number;
  /** The owner's pick: this visit only, or it and every later one. */
  chosen: 'this' | 'following';
}

function whichVisits(along: MoveAlong | undefined): Html {
  if (!along || along.later === 0) return html``;
  const option = (value: MoveAlong['chosen'], text: string) =>
    html`<label><input type="radio" name="visits" value="${value}" ${along.chosen === value && html` checked`} />${text}</label>`;
  return html`<fieldset class="which-visits">
    <legend>Which visits move</legend>
    ${option('this', 'Only this visit')} ${option('following', `This visit and the ${along.later} booked after it (the plan moves with it)`)}
  </fieldset>`;
}

/** The open times nearest the job's own start, first, each with its day: then the others by day. */
function nearestChoices(times: { start: string; label: string }[]): Html {
  return html`<fieldset class="times nearest">
    <legend>Nearest to its current time</legend>
    ${times.map((t) => html`<label><input type="radio" name="start" value="${t.start}" required />${t.label}</label>`)}
  </fieldset>`;
}

/**
 * Open times around the job's own date: the few nearest its current start first, then the
 * rest grouped by local day (none picked until the owner picks one), with earlier and later
 * days a link away; for a week picked with those links, that week by day. For a visit of a
 * series, the visits it stays between, and whether the later visits move with it.
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
    along?: MoveAlong;
    /** The owner's earlier choice to email the customer, kept through a refusal. */
    emailCustomer?: boolean;
    problem?: Problem;
  },
): Html {
  const path = jobLink(b.id, 'move');
  const hrefOf = (from?: LocalDate) => withFrom(path, from);
  const stays = jobStaysBetween(o.neighbours.before, o.neighbours.after);
  const { nearest, rest } = o.days.around ? nearestFirst(o.times, b.starts_at, NEAREST_MOVE_TIMES) : { nearest: [], rest: o.times };
  return html`${problemLine(o.problem)}
    <p><strong>${what(b, s.pro, o.now)}</strong></p>
    ${stays && html`<p>${stays}</p>`} ${moveDaysSaid(o.days, o.jobDay)}
    ${
      o.times.length
        ? html`<form method="get" action="${path}/confirm">
            ${!o.days.around && html`<input type="hidden" name="from" value="${o.days.from}" />`}
            ${o.emailCustomer && html`<input type="hidden" name="email_customer" value="yes" />`} ${whichVisits(o.along)}
            ${nearest.length > 0 && nearestChoices(nearest)}
            ${rest.length > 0 && html`${nearest.length > 0 && html`<p>Other open times, by day:</p>`}${startChoices(rest)}`}
            <button type="submit">Next: check the move</button>
          </form>`
        : html`<p>${NO_TIMES_THESE_DAYS}</p>`
    }
    ${moveDaysLinks(o.days, o.jobDay, hrefOf)} ${back}`;
}

/** What moving a visit with every later one does to them: how many, and where the first few land. */
export interface FollowingMove {
  count: number;
  labels: string[];
}

/** The checkbox that emails the customer the new time: offered only where they may get it, off unless ticked. */
function emailOffer(b: Booking, email: { to: string; checked: boolean } | null): Html {
  if (!email) return html`<p>We do not tell ${typedText(b.customer_name)}: you let them know.</p>`;
  return html`<p class="check">
    <input type="checkbox" id="f-email_customer" name="email_customer" value="yes" ${email.checked && html` checked`} /><label for="f-email_customer"
      >${typedText(emailNewTimeOffer(b.customer_name))}</label
    >
    <span class="note">To ${typedText(email.to)}. Left unticked, we do not tell ${typedText(b.customer_name)}: you let them know.</span>
  </p>`;
}

export function moveConfirmView(
  s: Signed,
  b: Booking,
  o: { now: Date; start: string; label: string; from?: string | undefined; following?: FollowingMove; email: { to: string; checked: boolean } | null },
): Html {
  const f = o.following;
  const later =
    f &&
    html`<p>${laterVisitsWillMove(f.count)}</p>
      <ul class="plan-visits">
        ${f.labels.map((l) => html`<li>${l}</li>`)}
      </ul>`;
  return html`<p>
      Move <strong>${what(b, s.pro, o.now)}</strong> to <strong>${o.label}</strong>? The price stays as booked and the old time is offered to other customers
      again.
    </p>
    ${later}
    <form method="post" action="${jobLink(b.id, 'move')}">
      ${csrfField(s)}<input type="hidden" name="start" value="${o.start}" />${o.from && html`<input type="hidden" name="from" value="${o.from}" />`}${
        f && html`<input type="hidden" name="visits" value="following" />`
      }
      ${emailOffer(b, o.email)}
      <button type="submit">${f ? `Move these ${f.count + 1} visits` : 'Move this job'}</button>
    </form>
    <p><a href="${withFrom(jobLink(b.id, 'move'), o.from)}">Pick another time</a></p>
    ${back}`;
}
