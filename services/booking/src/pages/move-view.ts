import {
  NO_TIMES_THESE_DAYS,
  PICK_A_NEW_TIME,
  PRICE_STAYS,
  aloneStaysBetween,
  laterStayAfter,
  moveLate,
  type LocalDate,
  type MoveWindow,
} from '@frontdesk/domain';
import { html, moveDaysLinks, moveDaysSaid, problemLine, type Html, type Problem } from '@frontdesk/http';
import type { Shown, Status, Visit } from './answers';
import { timePicker } from './booking-markup';

/**
 * The markup of the move page (`/manage/<token>/move`): the open times by day around the
 * visit's own date (or the week picked), links to earlier and later days, and what a move changes.
 */

export interface MoveView {
  token: string;
  b: Status;
  visit: Visit;
  /** For a series: this visit and every later booked one. */
  following: Visit[];
  times: Shown[];
  /** The days listed, and the visit's own day they are around. */
  days: MoveWindow;
  jobDay: LocalDate;
  /** For a series: the labels of the visits just before and after this one, which a move stays between. */
  neighbours?: { before?: string; after?: string };
  chosen?: string;
  late: boolean;
  problem?: Problem;
}

function buttons(v: MoveView, series: boolean): Html {
  if (!v.times.length) return html``;
  if (!series) return html`<button type="submit">Move it</button>`;
  const later = v.following.length - 1;
  const n = v.neighbours ?? {};
  return html`<p>Move only this visit: the other visits keep their times.${aloneStaysBetween(n.before, n.after)}</p>
    <button type="submit" name="scope" value="one">Move only this visit</button>
    ${
      later > 0 &&
      html`<p>
          Move this and the ${later} later visit${later === 1 ? '' : 's'}: each moves by the same number of days and to the same time of day as the time you
          pick, keeping the rhythm of the series.${laterStayAfter(n.before)}
        </p>
        <button type="submit" name="scope" value="later">Move this and later visits</button>`
    }`;
}

export function moveView(v: MoveView, series: boolean): Html {
  const visitId = series ? v.visit.booking_id : undefined;
  const base = `/manage/${v.token}/move`;
  const hrefOf = (from?: LocalDate) => {
    const query = [visitId && `visit=${encodeURIComponent(visitId)}`, from && `from=${from}`].filter(Boolean).join('&');
    return query ? `${base}?${query}` : base;
  };
  return html`${problemLine(v.problem)}
    <p>Now: <strong>${v.visit.label}</strong> with ${v.b.cleaner.name}. ${PRICE_STAYS}</p>
    ${v.late && html`<p class="error">${moveLate(v.b.cleaner.name)}</p>`}
    <form method="post" action="${base}">
      ${visitId && html`<input type="hidden" name="visit" value="${visitId}" />`}
      ${!v.days.around && html`<input type="hidden" name="from" value="${v.days.from}" />`}
      <h2>${PICK_A_NEW_TIME}</h2>
      ${moveDaysSaid(v.days, v.jobDay)} ${v.times.length ? timePicker(v.times, v.chosen, v.problem) : html`<p>${NO_TIMES_THESE_DAYS}</p>`}
      ${moveDaysLinks(v.days, v.jobDay, hrefOf)} ${buttons(v, series)}
    </form>
    <p><a href="/manage/${v.token}">Keep it as it is</a></p>`;
}
