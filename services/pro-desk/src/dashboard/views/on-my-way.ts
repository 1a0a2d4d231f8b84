import {
  CLEAN_TYPE_LABELS,
  ON_MY_WAY_ETA_LABEL,
  ON_MY_WAY_ETA_MINUTES,
  formatLabel,
  formatTimeOfDay,
  localDate,
  onMyWaySentAt,
  onMyWayWillEmail,
} from '@frontdesk/domain';
import type { Booking } from '@frontdesk/db';
import { html, problemLine, type Html, type Problem } from '@frontdesk/http';
import { csrfField, type Signed } from '../layout';
import { jobLink } from './job-card';
import { typedText } from './typed-text';

/**
 * "On my way" on the Today page: a job of today still ahead, whose customer has an email and
 * is the business's own (a platform lead's customer has no client record and is never mailed),
 * shows the button with an optional arrival time; once sent, the time it went, and no button.
 */

/** Whether the Today page offers "on my way" for this job now (the operation judges again when it runs). */
const offered = (b: Booking, s: Signed, now: Date) =>
  b.status === 'booked' &&
  b.ends_at.getTime() > now.getTime() &&
  localDate(b.starts_at, s.pro.timezone) === localDate(now, s.pro.timezone) &&
  Boolean(b.customer_email?.trim()) &&
  b.client_id !== null;

/** The form: the arrival estimate (optional, kept as typed after a refusal) and the button. */
function onMyWayForm(s: Signed, b: Booking, o: { eta?: string; problem?: Problem }): Html {
  const id = `eta-${b.id}`;
  const wrong = o.problem?.field === 'eta_minutes';
  return html`<form method="post" action="${jobLink(b.id, 'on-my-way')}" class="on-my-way">
    ${csrfField(s)}
    <label for="${id}">${ON_MY_WAY_ETA_LABEL}</label>
    <input
      id="${id}"
      name="eta_minutes"
      type="number"
      inputmode="numeric"
      min="${ON_MY_WAY_ETA_MINUTES.min}"
      max="${ON_MY_WAY_ETA_MINUTES.max}"
      value="${o.eta ?? ''}"
      ${wrong && html` aria-invalid="true" aria-describedby="${id}-error"`}
    />${wrong && html`<span class="error" id="${id}-error">${o.problem?.text}</span>`}
    <button type="submit">On my way</button>
  </form>`;
}

/** What a job card on the Today page says of "on my way": when it was sent, or the form while it can be. */
export function onMyWayPart(s: Signed, b: Booking, now: Date): Html {
  if (b.on_my_way_sent_at) return html`<p class="job-status">${onMyWaySentAt(formatTimeOfDay(b.on_my_way_sent_at, s.pro.timezone))}</p>`;
  return offered(b, s, now) ? onMyWayForm(s, b, {}) : html``;
}

/** The page of one job's "on my way" (its own address, and the form again after a refusal). */
export function onMyWayConfirmView(s: Signed, b: Booking, o: { now: Date; problem?: Problem; eta?: string }): Html {
  const what = html`${CLEAN_TYPE_LABELS[b.clean_type]} for ${typedText(b.customer_name)} on ${formatLabel(b.starts_at, s.pro.timezone, o.now)},
  ${typedText(b.address)}`;
  const sent = b.on_my_way_sent_at && html`<p>${onMyWaySentAt(formatTimeOfDay(b.on_my_way_sent_at, s.pro.timezone))}; a job gets it once.</p>`;
  const field = o.problem?.field === 'eta_minutes';
  return html`${field ? html`` : problemLine(o.problem)}
    <p><strong>${what}</strong></p>
    ${
      sent ||
      html`<p>${onMyWayWillEmail(typedText(b.customer_name))}</p>
        ${onMyWayForm(s, b, o)}`
    }
    <p><a href="/dashboard">Back to today</a></p>`;
}
