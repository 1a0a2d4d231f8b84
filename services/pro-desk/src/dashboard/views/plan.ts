import {
  CLEAN_TYPE_LABELS,
  MAX_PAUSE_WEEKS,
  NO_UPCOMING_VISITS,
  PLAN_ENDED,
  PLAN_GOES_ON,
  businessCancelNotMailed,
  clockTime,
  formatLabel,
  formatUsd,
  planCrewWillChange,
  planInWords,
  planWillEnd,
  planWillPause,
  reachCustomer,
  visitOfPlan,
  weekdayName,
} from '@frontdesk/domain';
import type { Booking, Crew, Pro } from '@frontdesk/db';
import type { PlanRead } from '@frontdesk/use-cases';
import { html, inputField, problemLine, type Html, type Problem } from '@frontdesk/http';
import { count, csrfField, type Done, type Signed } from '../layout';
import { crewSelect } from './crews';
import { jobLink } from './job-card';
import { planLink, type PlanForm } from './plan-link';
import { doneNotice } from './notices';
import { typedText } from './typed-text';
import type { Typed } from './typed-text';

/** A recurring plan's page and its confirmations: the plan in words, its visits, and what each change will do before it is done. */

/** The plan's rhythm as it stands: its weekday (from its anchor date) and local time. */
export const planWords = (plan: PlanRead): string =>
  planInWords({ frequency: plan.series.frequency, weekday: weekdayName(plan.series.first_date), time: clockTime(plan.series.local_minutes) });

/** A job page's line about its plan: the rhythm, where this visit stands, and the way to the plan. */
export function planOfJob(plan: PlanRead, place: { n: number; of: number; ended: boolean } | undefined): Html {
  const where = place ? `, ${visitOfPlan(place.n, place.of, place.ended)}` : '';
  return html`<p class="plan-of-job">Recurring plan: ${planWords(plan)}${where}. <a href="${planLink(plan.series.id)}">See the plan and change it</a></p>`;
}

const upcomingOf = (plan: PlanRead, now: Date) => plan.visits.filter((v) => v.status === 'booked' && v.starts_at.getTime() > now.getTime());
const label = (pro: Pro, at: Date, now: Date) => formatLabel(at, pro.timezone, now);
const STATUS_WORDS: Record<Booking['status'], string> = { booked: 'done', cancelled: 'cancelled', no_show: 'no-show' };

function visitItem(s: Signed, v: Booking, o: { now: Date; crews: boolean; upcoming: boolean }): Html {
  const when = label(s.pro, v.starts_at, o.now);
  const state = o.upcoming ? '' : ` (${v.status === 'booked' && v.starts_at.getTime() > o.now.getTime() ? 'booked' : STATUS_WORDS[v.status]})`;
  return html`<li>
    <strong>${when}</strong>${state}${o.crews && html`, ${typedText(v.crew_name)}`}
    ${o.upcoming && html`<p class="job-actions"><a href="${jobLink(v.id, 'move')}">Move</a> <a href="${jobLink(v.id, 'cancel')}">Cancel this visit</a></p>`}
  </li>`;
}

/** The plan's upcoming visits to start a change at: the next one picked unless another was. */
function visitSelect(s: Signed, o: { visits: Booking[]; now: Date; id: string; label: string; chosen?: string }): Html {
  return html`<label for="${o.id}">${o.label}</label>
    <select id="${o.id}" name="from">
      ${o.visits.map((v) => html`<option value="${v.id}" ${v.id === o.chosen && html` selected`}>${label(s.pro, v.starts_at, o.now)}</option>`)}
    </select>`;
}

/** What the plan page shows after a refused change: which form, as typed, and why. */
export interface PlanRefused {
  form: PlanForm;
  values: Typed;
  problem: Problem;
}

function changeForms(s: Signed, plan: PlanRead, o: { upcoming: Booking[]; crews: Crew[]; now: Date; refused?: PlanRefused }): Html {
  const id = plan.series.id;
  const typed = (form: PlanForm) => (o.refused?.form === form ? o.refused : undefined);
  const from = (form: PlanForm) => typed(form)?.values.from;
  const others = o.crews.filter((c) => c.active);
  const crewForm =
    others.length > 1
      ? html`<section aria-labelledby="plan-crew-h" id="plan-crew">
          <h3 id="plan-crew-h">Change the crew of later visits</h3>
          ${problemLine(typed('crew')?.problem)}
          <form method="get" action="${planLink(id, 'crew')}">
            ${visitSelect(s, { visits: o.upcoming, now: o.now, id: 'f-crew-from', label: 'From the visit of', chosen: from('crew') })}
            ${crewSelect({ id: 'f-crew_id', name: 'crew_id', label: 'Give them to', crews: others, chosen: typed('crew')?.values.crew_id, problem: typed('crew')?.problem, first: 'Pick a crew' })}
            <button type="submit">Next: check the change</button>
          </form>
        </section>`
      : html``;
  return html`<h2>Change the plan</h2>
    <p>To move visits, use a visit's Move link above: you can move that visit alone, or it and every later one.</p>
    ${crewForm}
    <section aria-labelledby="plan-pause-h" id="plan-pause">
      <h3 id="plan-pause-h">Pause the plan</h3>
      ${problemLine(typed('pause')?.problem)}
      <form method="get" action="${planLink(id, 'pause')}">
        ${visitSelect(s, { visits: o.upcoming, now: o.now, id: 'f-pause-from', label: 'From the visit of', chosen: from('pause') })}
        ${inputField(
          {
            label: 'For how many weeks',
            name: 'weeks',
            value: typed('pause')?.values.weeks ?? '2',
            type: 'number',
            attrs: html` min="1" max="${String(MAX_PAUSE_WEEKS)}" required inputmode="numeric"`,
          },
          typed('pause')?.problem,
        )}
        <button type="submit">Next: check the pause</button>
      </form>
    </section>
    <section aria-labelledby="plan-end-h" id="plan-end">
      <h3 id="plan-end-h">End the plan</h3>
      ${problemLine(typed('end')?.problem)}
      <form method="get" action="${planLink(id, 'end')}">
        ${visitSelect(s, { visits: o.upcoming, now: o.now, id: 'f-end-from', label: 'Cancel from the visit of', chosen: from('end') })}
        <button type="submit">Next: check the end</button>
      </form>
    </section>`;
}

/** The plan's page: what it is, its upcoming visits (each movable), how to change it, and its past visits. */
export function planView(s: Signed, plan: PlanRead, o: { crews: Crew[]; now: Date; done: Done | null; refused?: PlanRefused }): Html {
  const first = plan.visits.find((v) => v.status !== 'cancelled') ?? plan.visits[0]!;
  const several = o.crews.length > 1;
  const upcoming = upcomingOf(plan, o.now);
  const past = plan.visits.filter((v) => !upcoming.includes(v));
  const ended = plan.series.ended_at !== null;
  const crewNow = upcoming[0]?.crew_name;
  return html`${doneNotice(o.done)}
    <p>
      <strong>${ended ? 'Ended: ' : ''}${planWords(plan)}</strong>: ${CLEAN_TYPE_LABELS[first.clean_type]} for ${typedText(first.customer_name)},
      ${typedText(first.address)}, ${first.zip}; ${formatUsd(first.price_cents)} a visit.
    </p>
    ${several && crewNow && html`<p>Crew: <strong>${typedText(crewNow)}</strong></p>`}
    <p class="note">${ended ? PLAN_ENDED : PLAN_GOES_ON}</p>
    <h2>Upcoming visits</h2>
    ${
      upcoming.length
        ? html`<ol class="plan-visits">
            ${upcoming.map((v) => visitItem(s, v, { now: o.now, crews: several, upcoming: true }))}
          </ol>`
        : html`<p>${NO_UPCOMING_VISITS}</p>`
    }
    ${!ended && upcoming.length > 0 && changeForms(s, plan, { upcoming, crews: o.crews, now: o.now, ...(o.refused ? { refused: o.refused } : {}) })}
    <h2>Past and cancelled visits</h2>
    ${
      past.length
        ? html`<ol class="plan-visits">
            ${past.map((v) => visitItem(s, v, { now: o.now, crews: several, upcoming: false }))}
          </ol>`
        : html`<p>None yet.</p>`
    }
    <p><a href="/dashboard/schedule">Back to your schedule</a></p>`;
}

/** The visits a change acts on, as a list of their times (and crews). */
const visitList = (s: Signed, visits: Booking[], o: { now: Date; crews?: boolean }): Html =>
  html`<ul class="plan-visits">
    ${visits.map((v) => html`<li>${label(s.pro, v.starts_at, o.now)}${o.crews && html`, now ${typedText(v.crew_name)}`}</li>`)}
  </ul>`;

/** The confirmation's form: the values the change was checked with, hidden, and its one button; and the way back. */
function confirmForm(s: Signed, o: { action: string; hidden: Record<string, string>; button: string; back: string }): Html {
  return html`<form method="post" action="${o.action}">
      ${csrfField(s)}${Object.entries(o.hidden).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}" />`)}
      <button type="submit">${o.button}</button>
    </form>
    <p><a href="${o.back}">Back to the plan, change nothing</a></p>`;
}

export function planCrewConfirmView(s: Signed, plan: PlanRead, o: { from: Booking; to: Crew; visits: Booking[]; now: Date }): Html {
  const fromLabel = label(s.pro, o.from.starts_at, o.now);
  return html`<p><strong>${planWords(plan)}</strong> for ${typedText(o.from.customer_name)}.</p>
    <p>${typedText(planCrewWillChange(o.visits.length, fromLabel, o.to.name))}</p>
    ${visitList(s, o.visits, { now: o.now, crews: true })}
    ${confirmForm(s, {
      action: planLink(plan.series.id, 'crew'),
      hidden: { from: o.from.id, crew_id: o.to.id },
      button: `Give these visits to ${o.to.name}`,
      back: planLink(plan.series.id),
    })}`;
}

export function planPauseConfirmView(s: Signed, plan: PlanRead, o: { from: Booking; weeks: number; visits: Booking[]; resumes: Date; now: Date }): Html {
  const b = o.from;
  return html`<p><strong>${planWords(plan)}</strong> for ${typedText(b.customer_name)}.</p>
    <p>${planWillPause(o.weeks, label(s.pro, b.starts_at, o.now), o.visits.length, label(s.pro, o.resumes, o.now))}</p>
    ${o.visits.length > 0 && visitList(s, o.visits, { now: o.now })}
    <p>${typedText(businessCancelNotMailed(b.customer_name, reachCustomer(b.customer_phone, b.customer_email)))}</p>
    ${confirmForm(s, {
      action: planLink(plan.series.id, 'pause'),
      hidden: { from: b.id, weeks: String(o.weeks) },
      button: `Pause for ${count(o.weeks, 'week')}`,
      back: planLink(plan.series.id),
    })}`;
}

export function planEndConfirmView(s: Signed, plan: PlanRead, o: { from: Booking; visits: Booking[]; now: Date }): Html {
  const b = o.from;
  return html`<p><strong>${planWords(plan)}</strong> for ${typedText(b.customer_name)}.</p>
    <p>${planWillEnd(label(s.pro, b.starts_at, o.now), o.visits.length)}</p>
    ${visitList(s, o.visits, { now: o.now })}
    <p>${typedText(businessCancelNotMailed(b.customer_name, reachCustomer(b.customer_phone, b.customer_email)))}</p>
    ${confirmForm(s, { action: planLink(plan.series.id, 'end'), hidden: { from: b.id }, button: 'End the plan', back: planLink(plan.series.id) })}`;
}
