import { TIME_GONE, formatUsd, fromUsd, timeKept } from '@frontdesk/domain';
import { html, safeUrl, startChoices, type Html, type Problem } from '@frontdesk/http';
import type { CustomerBooking, Shown } from './answers';

/** The pieces of markup more than one customer's page draws, from the operations' answers: prices, a booking, open times, links. */

export const money = (usd: number) => formatUsd(fromUsd(usd));

/** How often a series comes back, as a sentence ends ("every week"). */
const EVERY: Record<string, string> = { weekly: 'every week', biweekly: 'every two weeks', monthly: 'every month' };
export const repeats = (frequency: string | undefined): string | undefined => (frequency ? EVERY[frequency] : undefined);

/** A price as a person reads it: per visit for a repeating cleaning, in total for one. */
export const priceText = (usd: number, frequency: string | undefined): string => {
  const every = repeats(frequency);
  return every ? `${money(usd)} per visit, ${every}` : `${money(usd)} in total`;
};

/**
 * The open times to pick from (startChoices), nothing picked unless the person picked it
 * before a refusal (then it stays picked, with a sentence; gone, the sentence says so).
 */
export function timePicker(times: Shown[], chosen: string | undefined, problem?: Problem): Html {
  const kept = chosen ? times.find((t) => t.start === chosen) : undefined;
  const said = chosen ? (kept ? timeKept(kept.label) : TIME_GONE) : undefined;
  const wrong = problem?.field === 'start';
  return html`${said && html`<p class="note" id="time-said">${said}</p>`}${wrong && html`<p class="error" id="f-start-error">${problem?.text}</p>`}
  ${startChoices(times, kept?.start)}`;
}

/** A price's lines, one row each: what it is for and what it costs. */
export const lineRows = (lines: { label: string; amount: number }[]): Html[] =>
  lines.map(
    (l) =>
      html`<tr>
        <td>${l.label}</td>
        <td>${money(l.amount)}</td>
      </tr>`,
  );

/** What a booking is: when (unless its visits are listed apart: `when: false`), with whom, where, and what it costs. */
export function bookingSummary(b: CustomerBooking, o: { when?: boolean } = {}): Html {
  const reach = [b.cleaner.phone, b.cleaner.email].filter((v): v is string => Boolean(v)).join(' · ');
  return html`<p>
      ${o.when === false ? 'With' : html`<strong>${b.label}</strong> with`} <strong><bdi>${b.cleaner.name}</bdi></strong
      >${reach && html` (${reach})`}.
    </p>
    <p><bdi>${b.address}</bdi>, ${b.zip}</p>
    <table>
      ${lineRows(b.line_items)}
      <tr>
        <th scope="row">${repeats(b.job.frequency) ? 'Each visit' : 'Total'}</th>
        <td><strong>${money(b.total)}</strong>${repeats(b.job.frequency) && html`, ${repeats(b.job.frequency)}`}</td>
      </tr>
    </table>
    ${b.notes && html`<p>Notes: <bdi class="kept-lines">${b.notes}</bdi></p>`}`;
}

/** A link the operations answered (a manage page): only ever http(s) or a path here. */
export const link = (href: string, text: string, id?: string): Html => html`<a${id && html` id="${id}"`} href="${safeUrl(href)}">${text}</a>`;

/** Text read by screen readers only, to tell a row's links apart ("Cancel the visit on Tue, Nov 24"). */
export const hidden = (text: string): Html => html`<span class="vh">${text}</span>`;
