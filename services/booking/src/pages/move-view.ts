import { FREE_CANCEL_HOURS } from '@frontdesk/domain';
import { html, problemLine, type Html, type Problem } from '@frontdesk/http';
import type { Shown, Status, Visit } from './kit';
import { timePicker } from './parts';

/** The markup of the move page (`/manage/<token>/move`): the open times by day, and what a move changes. */

export interface MoveView {
  token: string;
  b: Status;
  visit: Visit;
  /** For a series: this visit and every later booked one. */
  following: Visit[];
  times: Shown[];
  chosen?: string;
  late: boolean;
  problem?: Problem;
}

function buttons(v: MoveView, series: boolean): Html {
  if (!v.times.length) return html``;
  if (!series) return html`<button type="submit">Move it</button>`;
  const later = v.following.length - 1;
  return html`<p>Move only this visit: the other visits keep their times.</p>
    <button type="submit" name="scope" value="one">Move only this visit</button>
    ${
      later > 0 &&
      html`<p>
          Move this and the ${later} later visit${later === 1 ? '' : 's'}: each moves by the same number of days and to the same time of day as the time you
          pick, keeping the rhythm of the series.
        </p>
        <button type="submit" name="scope" value="later">Move this and later visits</button>`
    }`;
}

export function moveView(v: MoveView, series: boolean): Html {
  const visitId = series ? v.visit.booking_id : undefined;
  return html`${problemLine(v.problem)}
    <p>Now: <strong>${v.visit.label}</strong> with ${v.b.cleaner.name}. The price stays the same.</p>
    ${
      v.late &&
      html`<p class="error">This visit starts within ${FREE_CANCEL_HOURS} hours: it still moves, but ${v.b.cleaner.name} may charge under their own policy.</p>`
    }
    <form method="post" action="/manage/${v.token}/move">
      ${visitId && html`<input type="hidden" name="visit" value="${visitId}" />`}
      <h2>Pick a new time</h2>
      ${v.times.length ? timePicker(v.times, v.chosen, v.problem) : html`<p>No open times in the next two weeks.</p>`} ${buttons(v, series)}
    </form>
    <p><a href="/manage/${v.token}">Keep it as it is</a></p>`;
}
