import { html, type Html } from '@frontdesk/http';
import type { Done, Section } from '../layout';
import { jobLink } from './job-card';
import { typedText } from './typed-text';

/** What a dashboard page says above all else: what the last action did, or that what its address names is not there. */

/** Booked jobs a settings change left outside the hours or inside time off, each with its move and cancel. */
function affectedList(done: Done): Html {
  if (!done.affected?.length) return html``;
  const items = done.affected.map(
    (j) =>
      html`<li>
        ${j.label}, ${typedText(j.customer_name)}, ${typedText(j.address)}: ${j.problem}
        <a href="${jobLink(j.booking_id, 'move')}">Move it</a> or <a href="${jobLink(j.booking_id, 'cancel')}">cancel it</a>
      </li>`,
  );
  return html`<p>Booked jobs this touches (none was cancelled):</p>
    <ul>
      ${items}
    </ul>`;
}

/** What the last action did, at the top of the page it led to. */
export function doneNotice(done: Done | null): Html {
  if (!done) return html``;
  return html`<div class="done">
    <p class="${done.gone ? 'note' : 'ok'}" role="status">${typedText(done.text)}</p>
    ${
      done.secret &&
      html`<p>${done.secret.label}</p>
        <p class="key" id="${done.secret.id}">${done.secret.value}</p>`
    }
    ${
      done.quote &&
      html`<p>${done.quote.label}</p>
        <blockquote class="key">${typedText(done.quote.text)}</blockquote>`
    }
    ${affectedList(done)}
  </div>`;
}

/** Where the way back from a page about one thing leads, in words. */
const BACK_TO: Partial<Record<Section, string>> = {
  '/dashboard/schedule': 'your schedule',
  '/dashboard/clients': 'your clients',
  '/dashboard/crews': 'your crews',
  '/dashboard/properties': 'your properties',
  '/dashboard/settings': 'your settings',
  '/dashboard/webhooks': 'your webhooks',
};

/** A refusal in place of the page (the job, crew or webhook its address names is not this business's), with the way back to its section. */
export const goneNotice = (message: string, back: Section): Html =>
  html`<p class="error" role="alert">${message}</p>
    <p><a href="${back}">Back to ${BACK_TO[back] ?? 'your dashboard'}</a></p>`;
