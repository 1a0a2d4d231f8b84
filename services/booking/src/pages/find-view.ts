import { CHECKS_NOTE, notOfferingAll } from '@frontdesk/domain';
import { html, type Html, type Problem, problemLine } from '@frontdesk/http';
import type { Found } from './answers';
import { money } from './booking-markup';
import { bathroomOptions, bedroomOptions } from './job-fields';

/** The search by ZIP and the cleaners it found: the markup of `/` (its form) and `/find`. */

export interface Search {
  zip: string;
  bedrooms?: string;
  bathrooms?: string;
}

/** The search form, with what was typed kept; bedrooms and bathrooms start where the booking page does. */
export function searchForm(s: Search, problem?: Problem): Html {
  const wrongZip = problem?.field === 'zip';
  return html`<form method="get" action="/find">
    <label for="f-zip">Your ZIP code</label>
    <input
      id="f-zip"
      name="zip"
      required
      inputmode="numeric"
      pattern="[0-9]{5}"
      maxlength="5"
      autocomplete="postal-code"
      value="${s.zip}"
      ${wrongZip && html` aria-invalid="true" aria-describedby="f-zip-error"`}
    />${wrongZip && html`<span class="error" id="f-zip-error">${problem?.text}</span>`} <label for="f-bedrooms">Bedrooms</label
    ><select id="f-bedrooms" name="bedrooms" required>
      ${bedroomOptions(s.bedrooms)}
    </select>
    <label for="f-bathrooms">Bathrooms</label
    ><select id="f-bathrooms" name="bathrooms" required>
      ${bathroomOptions(s.bathrooms)}
    </select>
    <button type="submit">Find cleaners</button>
  </form>`;
}

/** The search form again, with why it found nothing to show (a refusal, or the rooms missing). */
export function searchAgain(s: Search, problem: Problem): Html {
  return html`${problemLine(problem)}${searchForm(s, problem)}`;
}

export function foundView(s: Search, found: Found, job: Record<string, string>): Html {
  const items = found.cleaners.map(
    (c) =>
      html`<section class="job">
        <h2>${c.name}: ${money(c.total)}</h2>
        <p>${c.price.summary}</p>
        <p>${c.next_open_times[0] ? `Next open: ${c.next_open_times[0].label}` : 'No open times in the coming week.'}</p>
        ${c.checks.map((k) => html`<p class="note">${k.summary}</p>`)}
        <p><a href="/book/${encodeURIComponent(c.cleaner_id)}?${new URLSearchParams(job).toString()}">See times and book ${c.name}</a></p>
      </section>`,
  );
  const without = found.not_offered.map((c) => c.name);
  return html`${items.length ? items : html`<p>${found.message ?? 'No cleaner serves this ZIP yet.'}</p>`}
    ${without.length > 0 && html`<p class="note">${notOfferingAll(without)}</p>`}
    <p class="note">${CHECKS_NOTE}</p>
    <h2>Search again</h2>
    ${searchForm(s)}`;
}
