import {
  CHECKS_NOTE,
  CLEAN_TYPE_LABELS,
  CONFIRMATION_ELSEWHERE,
  FIRM_PRICE,
  FREQUENCY_LABELS,
  HOLD_ON_PICK,
  NO_NEAREST_TIMES,
  labelledStarts,
  offeredAddOns,
  offeredCleanTypes,
} from '@frontdesk/domain';
import { html, inputField, problemLine, startChoices, type Html, type Problem } from '@frontdesk/http';
import type { Pro } from '@frontdesk/db';
import type { HeldTime, Shown, Status, Times } from './answers';
import { money, bookingSummary, lineRows, link, priceText, repeats, timePicker } from './booking-markup';
import { bathroomOptions, bedroomOptions, jobOfAnswer, option } from './job-fields';

/** The markup of the booking page (`/book/<cleaner>`) and of its confirmation. */

/** The cleaner as the booking page introduces it: where it works and its dated checks. */
export function cleanerHead(pro: Pro, checks: { summary: string }[]): Html {
  return html`<p>Serves ZIP ${pro.service_zips.join(', ')}.</p>
    ${checks.map((c) => html`<p class="note">${c.summary}</p>`)}${checks.length > 0 && html`<p class="note">${CHECKS_NOTE}</p>`}`;
}

const select = (label: string, name: string, options: Html[]) =>
  html`<label for="f-${name}">${label}</label
    ><select id="f-${name}" name="${name}">
      ${options}
    </select>`;

/** The job: its size, kind, extras (each with its price), pets (with the fee) and how often. */
export function jobForm(pro: Pro, job: Record<string, string>, typedRef?: string): Html {
  const list = pro.price_list;
  const chosen = new Set((job.add_ons ?? '').split(','));
  const types = offeredCleanTypes(list).map((t) => option(t, CLEAN_TYPE_LABELS[t], (job.clean_type ?? 'standard') === t));
  const addOns = offeredAddOns(list).map(
    (a) =>
      html`<label
          ><input type="checkbox" name="add_ons" value="${a}" ${chosen.has(a) && html` checked`} />${list.add_ons[a]!.label}
          (+${money(list.add_ons[a]!.price_cents / 100)})</label
        ><br />`,
  );
  const frequencies = Object.entries(FREQUENCY_LABELS).map(([f, label]) => option(f, label, (job.frequency ?? 'once') === f));
  const petsFee = list.pets_fee_cents > 0 ? ` (+${money(list.pets_fee_cents / 100)})` : '';
  return html`<form method="get" action="/book/${encodeURIComponent(pro.id)}">
    <h2>Your home</h2>
    ${select('Bedrooms', 'bedrooms', bedroomOptions(job.bedrooms))} ${select('Bathrooms', 'bathrooms', bathroomOptions(job.bathrooms))}
    ${select('Kind of clean', 'clean_type', types)}
    ${
      addOns.length > 0 &&
      html`<fieldset>
        <legend>Extras</legend>
        ${addOns}
      </fieldset>`
    }
    <label><input type="checkbox" name="pets" value="true" ${job.pets === 'true' && html` checked`} />Pets in the home${petsFee}</label><br />
    <label for="f-sqft">Size in square feet (optional)</label><input id="f-sqft" name="sqft" inputmode="numeric" value="${job.sqft ?? ''}" />
    ${select('How often', 'frequency', frequencies)} ${typedRef && html`<input type="hidden" name="typed" value="${typedRef}" />`}
    <button type="submit">See the price and open times</button>
  </form>`;
}

/** What the times part of the booking page shows: the job, its price and times, how many days, what was typed before (kept for the next step) and why a pick was refused. */
export interface TimesView {
  pro: Pro;
  job: Record<string, string>;
  times: Times;
  days: number;
  contact: Record<string, string>;
  /** The reference of the details typed before, kept for this visit: links carry it, never the details themselves. */
  typedRef?: string;
  problem?: Problem;
}

function priceBlock(times: Times, job: Record<string, string>): Html {
  const { price } = times;
  const every = repeats(job.frequency);
  const perVisit = price.recurring?.visit_total ?? price.total;
  return html`<h2>Your price: ${every ? priceText(perVisit, job.frequency) : money(price.total)}</h2>
    <p>${price.summary}</p>
    <table>
      ${lineRows(price.line_items)}
      <tr>
        <th scope="row">${every ? 'First visit' : 'Total'}</th>
        <td><strong>${money(price.total)}</strong></td>
      </tr>
    </table>
    <p class="note">${FIRM_PRICE}</p>`;
}

const area = (label: string, name: string, v: { value: string; problem?: Problem }) => {
  const wrong = v.problem?.field === name;
  return html`<label for="f-${name}">${label}</label
    ><textarea id="f-${name}" name="${name}" rows="2" maxlength="500" ${wrong && html` aria-invalid="true" aria-describedby="f-${name}-error"`}>
${v.value}</textarea
    >${wrong && html`<span class="error" id="f-${name}-error">${v.problem?.text}</span>`}`;
};

function contactFields(contact: Record<string, string>, zips: string[], problem?: Problem): Html {
  const field = (label: string, name: string, extra: { type?: string; attrs: Html; hint?: string }) =>
    inputField({ label, name, value: contact[name] ?? '', ...extra }, problem);
  return html`<h2>Your details</h2>
    ${field('Your name', 'customer_name', { attrs: html` required maxlength="100" autocomplete="name"` })}
    ${field('Phone', 'customer_phone', { type: 'tel', attrs: html` maxlength="30" autocomplete="tel"` })}
    ${field('Email', 'customer_email', { type: 'email', attrs: html` maxlength="200" autocomplete="email"` })}
    <p class="note">Give a phone or an email (or both) so the cleaner can reach you.</p>
    ${field('Street address', 'address', { attrs: html` required maxlength="300" autocomplete="street-address"` })}
    ${select(
      'ZIP',
      'zip',
      zips.map((z) => option(z, z, contact.zip === z)),
    )}
    ${area('Notes for the cleaner (optional)', 'notes', { value: contact.notes ?? '', problem })}
    ${area('How to get in: door code, key, parking (optional)', 'access_details', { value: contact.access_details ?? '', problem })}`;
}

const hiddenFields = (fields: Record<string, string>) =>
  Object.entries(fields)
    .filter(([, value]) => value !== '')
    .map(([k, value]) => html`<input type="hidden" name="${k}" value="${value}" />`);

/**
 * The open times: picking one holds it for the customer (the next step asks for their details,
 * with what they typed before), so no one else books it while they type. Nothing books from here.
 */
export function timesToHold(v: TimesView): Html {
  const { pro, job, times, days, contact } = v;
  const cleaner = encodeURIComponent(pro.id);
  const starts = labelledStarts(times.open_times, times.timezone);
  const more = days < 21 && new URLSearchParams({ ...job, days: String(Math.min(21, days + 7)), ...(v.typedRef && { typed: v.typedRef }) }).toString();
  const { start: _start, ...typed } = contact;
  return html`${priceBlock(times, job)}
    <form method="post" action="/book/${cleaner}/hold">
      ${hiddenFields(job)} ${hiddenFields(typed)}
      <h2>Pick a time</h2>
      ${starts.length ? timePicker(starts, contact.start || undefined, v.problem) : html`<p>No open times in these days.</p>`}
      ${more && html`<p><a href="/book/${cleaner}?${more}">Show more days</a></p>`}
      ${
        starts.length > 0 &&
        html`<p class="note">${HOLD_ON_PICK}</p>
          <button type="submit">Hold this time</button>`
      }
    </form>`;
}

/** What the details step shows: the held time, its price, until when it is held, and what was typed. */
export interface HeldView {
  pro: Pro;
  hold: HeldTime;
  /** "held for you until 10:42 AM", in the business's time zone. */
  said: string;
  contact: Record<string, string>;
  problem?: Problem;
}

/**
 * The details step: the time held for the customer until when, its firm price, and their
 * details to book it with. "Pick another time" lets the hold go and goes back to the times,
 * with what was typed kept for the next pick.
 */
export function heldDetails(v: HeldView): Html {
  const { pro, hold } = v;
  const cleaner = encodeURIComponent(pro.id);
  const job = jobOfAnswer(hold.job);
  return html`<p class="ok" role="status" id="held-until">${v.said}</p>
    <table>
      ${lineRows(hold.line_items)}
      <tr>
        <th scope="row">${repeats(hold.job.frequency) ? 'First visit' : 'Total'}</th>
        <td><strong>${money(hold.total)}</strong></td>
      </tr>
    </table>
    <p class="note">${FIRM_PRICE}</p>
    <form method="post" action="/book/${cleaner}">
      ${hiddenFields({ ...job, hold_id: hold.hold_id, start: hold.start, expected_total: String(hold.total) })}
      ${contactFields(v.contact, pro.service_zips, v.problem)}
      <button type="submit">Book this cleaning</button>
      <button type="submit" formaction="/book/${cleaner}/another-time" formnovalidate>Pick another time</button>
    </form>`;
}

/** A held time that can no longer be booked: the reason in words, the nearest open times to hold instead, what was typed kept. */
export function heldGone(v: {
  pro: Pro;
  job: Record<string, string>;
  nearest: Shown[];
  contact: Record<string, string>;
  typedRef?: string;
  problem: Problem;
}): Html {
  const cleaner = encodeURIComponent(v.pro.id);
  const every = new URLSearchParams({ ...v.job, ...(v.typedRef && { typed: v.typedRef }) }).toString();
  const { start: _start, ...typed } = v.contact;
  return html`<form method="post" action="/book/${cleaner}/hold">
      ${hiddenFields(v.job)} ${hiddenFields(typed)}
      <h2>The nearest open times</h2>
      ${v.nearest.length ? html`${startChoices(v.nearest)}<button type="submit">Hold this time</button>` : html`<p>${NO_NEAREST_TIMES}</p>`}
    </form>
    <p><a href="/book/${cleaner}?${every}">See every open time</a></p>`;
}

/** The whole booking page: a refusal's sentence on top, the cleaner, the job, and when priced the times and details. */
export const bookingPageView = (o: { head: Html; form: Html; times?: Html; problem?: Problem }): Html =>
  html`${problemLine(o.problem)}${o.head}${o.form}${o.times ?? ''}`;

/** The confirmation, shown again on every reload in the browser that booked. */
export function confirmationView(b: Status, emailed: boolean): Html {
  const booked = b.series_visits.filter((v) => v.status === 'booked');
  const every = repeats(b.job.frequency);
  return html`<p class="ok" role="status">Booked ${b.cleaner.name} for ${b.label}. ${b.cleaner.name} will contact you about access and payment.</p>
    ${every && html`<p>This cleaning repeats ${every}: ${booked.length} visits are booked from ${b.label}, and more are added as time passes.</p>`}
    ${bookingSummary(b)}
    <h2>Your booking's page</h2>
    <p>
      Keep this link: it is the only way to see, move or cancel this booking, and add it to your
      calendar.${emailed ? ' It was also sent to the email address you gave.' : ''}
    </p>
    <p>${link(b.manage_url, b.manage_url, 'manage-link')}</p>`;
}

export const confirmationElsewhere = (): Html =>
  html`<p>${CONFIRMATION_ELSEWHERE}</p>
    <p><a href="/">Find a cleaner</a></p>`;
