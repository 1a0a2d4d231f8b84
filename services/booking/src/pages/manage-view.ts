import { ENDED_VISITS_NOTE, SERIES_ENDED, endedSeriesStillBooked, seriesBookedCount } from '@frontdesk/domain';
import { html, type Html } from '@frontdesk/http';
import type { Status, Visit } from './answers';
import { money, bookingSummary, hidden, priceText, repeats } from './booking-markup';

/**
 * The markup of the manage page (`/manage/<token>`): one booking, or a series with what is
 * still booked first and what ended after it, then what the cleaning is.
 */

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

/**
 * A series: what is still booked (how often it comes and what each visit costs while it goes
 * on; once it has ended, only the visits left), each visit ahead to move or cancel; then what
 * ended: the series itself, and the visits cancelled or missed.
 */
function seriesPart(token: string, b: Status, now: Date): Html {
  const ahead = new Set(visitsAhead(b, now).map((v) => v.booking_id));
  const booked = b.series_visits.filter((v) => v.status === 'booked');
  const gone = b.series_visits.filter((v) => v.status !== 'booked');
  const every = repeats(b.job.frequency) ?? 'regularly';
  const said = b.series_ended
    ? html`<p>${endedSeriesStillBooked(booked.length, b.cleaner.name, money(b.total))}</p>`
    : html`<p>This cleaning repeats <strong>${every}</strong> with ${b.cleaner.name}: <strong>${priceText(b.total, b.job.frequency)}</strong>.</p>
        <p>${seriesBookedCount(booked.length)}</p>`;
  return html`<section aria-labelledby="still-booked">
      <h2 id="still-booked">Still booked</h2>
      ${said}
      ${
        booked.length > 0 &&
        html`<ol class="visits">
          ${booked.map((v) => visitRow(token, v, ahead.has(v.booking_id)))}
        </ol>`
      }
    </section>
    ${
      (b.series_ended || gone.length > 0) &&
      html`<section aria-labelledby="ended">
        <h2 id="ended">Ended</h2>
        ${b.series_ended && html`<p>${SERIES_ENDED}</p>`}
        ${
          gone.length > 0 &&
          html`<p>${ENDED_VISITS_NOTE}</p>
            <ol class="visits ended">
              ${gone.map((v) => visitRow(token, v, false))}
            </ol>`
        }
      </section>`
    }`;
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
    <h2>The cleaning</h2>
    ${bookingSummary(b, { when: !series })}
    <p><a href="/manage/${token}/booking.ics">Add it to your calendar (.ics)</a></p>`;
}
