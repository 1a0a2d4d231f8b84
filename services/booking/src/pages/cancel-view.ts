import { FREE_CANCEL_HOURS, FREE_CANCEL_TEXT } from '@frontdesk/domain';
import { html, problemLine, type Html, type Problem } from '@frontdesk/http';
import type { Status, Visit } from './answers';
import { bookingSummary } from './booking-markup';

/** The markup of the cancel confirmation (`/manage/<token>/cancel`): exactly what each choice cancels. */

export interface CancelView {
  token: string;
  b: Status;
  /** The visit to cancel, and (for a series) it and every later booked visit. */
  visit: Visit;
  following: Visit[];
  late: boolean;
  problem?: Problem;
}

const yes = (o: { token: string; visit?: string; later: boolean; label: string }) =>
  html`<form method="post" action="/manage/${o.token}/cancel">
    <input type="hidden" name="confirm" value="yes" />${o.visit && html`<input type="hidden" name="visit" value="${o.visit}" />`}${
      o.later && html`<input type="hidden" name="scope" value="later" />`
    }
    <button type="submit">${o.label}</button>
  </form>`;

const lateWarning = (v: CancelView) =>
  v.late &&
  html`<p class="error">This visit starts within ${FREE_CANCEL_HOURS} hours: it still cancels, but ${v.b.cleaner.name} may charge under their own policy.</p>`;

/** One cleaning, no series: the booking and one button. */
function single(v: CancelView): Html {
  return html`${bookingSummary(v.b)} ${yes({ token: v.token, later: false, label: 'Yes, cancel it' })}`;
}

/** A visit of a series: cancel it alone (the others stay), or it and every later one (the series ends). */
function ofSeries(v: CancelView): Html {
  const { visit, following } = v;
  const others = following.length - 1;
  return html`<p>With ${v.b.cleaner.name}, ${v.b.address}.</p>
    <section>
      <h2>Only this visit</h2>
      <p>
        Cancels the visit on <strong>${visit.label}</strong>.
        ${others > 0 ? `The other ${others} booked visit${others === 1 ? '' : 's'} after it stay booked.` : 'No other visit is booked after it.'}
      </p>
      ${yes({ token: v.token, visit: visit.booking_id, later: false, label: 'Cancel only this visit' })}
    </section>
    ${
      others > 0 &&
      html`<section>
        <h2>This and all later visits</h2>
        <p>Cancels these ${following.length} visits and ends the series, so no more are booked:</p>
        <ul>
          ${following.map((f) => html`<li>${f.label}</li>`)}
        </ul>
        ${yes({ token: v.token, visit: visit.booking_id, later: true, label: `Cancel these ${following.length} visits` })}
      </section>`
    }`;
}

export function cancelView(v: CancelView, series: boolean): Html {
  return html`${problemLine(v.problem)}${lateWarning(v)}
    <p class="note">${FREE_CANCEL_TEXT}</p>
    ${series ? ofSeries(v) : single(v)}
    <p><a href="/manage/${v.token}">Keep ${series ? 'my visits' : 'it'}</a></p>`;
}
