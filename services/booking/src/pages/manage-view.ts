import { html, type Html } from '@frontdesk/http';
import type { Status, Visit } from './kit';
import { bookingSummary, hidden, priceText, repeats } from './parts';

/** The markup of the manage page (`/manage/<token>`): one booking, or a series and its visits. */

/** The visits of a series still booked and ahead of `now`. */
export const visitsAhead = (b: Status, now: Date): Visit[] =>
  b.series_visits.filter((v) => v.status === 'booked' && new Date(v.start).getTime() > now.getTime());

const STATUS_WORDS: Record<string, string> = { booked: 'booked', cancelled: 'cancelled', no_show: 'missed' };
/** Where one cleaning stands, as a sentence. */
const SINGLE_STATUS: Record<string, string> = {
  booked: 'This cleaning is booked.',
  cancelled: 'This cleaning is cancelled.',
  no_show: 'The cleaner marked this cleaning as missed.',
};

function visitRow(token: string, v: Visit, ahead: boolean): Html {
  const base = `/manage/${token}`;
  const visit = encodeURIComponent(v.booking_id);
  return html`<li class="visit${v.status !== 'booked' && html` gone`}">
    <span>${v.label}</span> <span class="status">${STATUS_WORDS[v.status] ?? v.status}</span>
    ${
      ahead &&
      html`<span class="acts"
        ><a href="${base}/move?visit=${visit}">Move${hidden(` the visit on ${v.label}`)}</a>
        <a href="${base}/cancel?visit=${visit}">Cancel${hidden(` the visit on ${v.label}`)}</a></span
      >`
    }
  </li>`;
}

/** A series: how often it comes, what each visit costs, and its visits from now on, each to move or cancel. */
function seriesPart(token: string, b: Status, now: Date): Html {
  const ahead = new Set(visitsAhead(b, now).map((v) => v.booking_id));
  const every = repeats(b.job.frequency) ?? 'regularly';
  return html`<p>This cleaning repeats <strong>${every}</strong> with ${b.cleaner.name}: <strong>${priceText(b.total, b.job.frequency)}</strong>.</p>
    <h2>Visits from now on</h2>
    ${
      ahead.size === 0
        ? html`<p class="ok">Nothing is booked ahead: every visit from now on is cancelled.</p>`
        : html`<p>${ahead.size} visit${ahead.size === 1 ? ' is' : 's are'} booked. Move or cancel one visit, or one and all later ones.</p>`
    }
    <ol class="visits">
      ${b.series_visits.map((v) => visitRow(token, v, ahead.has(v.booking_id)))}
    </ol>`;
}

/** One cleaning (no series): its status and, while it is ahead, a way to move or cancel it. */
function singlePart(token: string, b: Status, now: Date): Html {
  const live = b.status === 'booked' && new Date(b.start).getTime() > now.getTime();
  return html`<p>
      <strong>${live || b.status !== 'booked' ? (SINGLE_STATUS[b.status] ?? b.status) : 'The time of this cleaning has passed.'}</strong>
    </p>
    ${
      live &&
      html`<p><a href="/manage/${token}/move">Move it to another time</a></p>
        <form method="get" action="/manage/${token}/cancel"><button type="submit">Cancel this cleaning</button></form>`
    }`;
}

export function manageView(o: { token: string; b: Status; now: Date; notice?: string }): Html {
  const { token, b, now } = o;
  const series = Boolean(b.series_id && repeats(b.job.frequency));
  return html`${o.notice && html`<p class="ok" role="status">${o.notice}</p>`} ${series ? seriesPart(token, b, now) : singlePart(token, b, now)}
    <h2>${series ? 'The first visit' : 'The cleaning'}</h2>
    ${bookingSummary(b)}
    <p><a href="/manage/${token}/booking.ics">Add it to your calendar (.ics)</a></p>`;
}
