import { formatLabel, localDate } from '@frontdesk/domain';
import type { Booking, NamedHold, Notification, Pro } from '@frontdesk/db';
import type { followUpsDue } from '@frontdesk/use-cases';
import { html, type Html } from '@frontdesk/http';
import { count, csrfField, type Done, type Signed } from '../layout';
import { bookingAddress } from './booking-address';
import { holdCard } from './holds';
import { jobCard } from './job-card';
import { doneNotice } from './notices';
import { onMyWayPart } from './on-my-way';
import { typedText } from './typed-text';
import { crewFilterPart, type CrewFilter } from './schedule';

/**
 * Today (`/dashboard`): today's jobs and the times pencilled in for today, one list by start,
 * first (on a phone they are what the owner opens the page for), then what is new since the
 * owner last looked, what to do next and the booking page's address.
 */
export interface TodayData {
  now: Date;
  jobs: Booking[];
  /** Today's pencilled-in times. */
  holds: NamedHold[];
  /** The business's public booking page on the booking host. */
  bookingPage: string;
  notifications: Notification[];
  activity: Notification[];
  followUps: Awaited<ReturnType<typeof followUpsDue>>;
}

function newSince(s: Signed, d: TodayData): Html {
  if (d.notifications.length === 0)
    return html`<section aria-labelledby="new">
      <h2 id="new">New</h2>
      <p>Nothing new since you last looked.</p>
    </section>`;
  const items = d.notifications.map(
    (n) => html`<li>${typedText(n.message)} <span class="note">${formatLabel(n.created_at, s.pro.timezone, d.now)}</span></li>`,
  );
  const ids = d.notifications.map((n) => html`<input type="hidden" name="id" value="${n.id}" />`);
  return html`<section aria-labelledby="new">
    <h2 id="new">New (${d.notifications.length})</h2>
    <ul>
      ${items}
    </ul>
    <form method="post" action="/dashboard/notifications/read">${csrfField(s)}${ids}<button type="submit">I have seen these</button></form>
  </section>`;
}

/**
 * Today's jobs and the times pencilled in for today as one list, in the order of their starts
 * (a job before a pencilled-in time at the same start), so the day reads as it will run.
 */
function todaysList(s: Signed, d: TodayData, todays: Booking[], crews: boolean): Html {
  const cards = [
    ...todays.map((b) => ({ at: b.starts_at.getTime(), card: jobCard(b, s.pro, d.now, { crews, more: (j) => onMyWayPart(s, j, d.now) }) })),
    ...d.holds.map((h) => ({ at: h.starts_at.getTime(), card: holdCard(h, s.pro, { now: d.now, crews, back: 'today' }) })),
  ].sort((a, b) => a.at - b.at);
  return html`${todays.length === 0 && html`<p>No jobs today.</p>`}${cards.map((c) => c.card)}`;
}

/** What happened lately that the owner has seen already (what is new is listed above it, once). */
function activity(pro: Pro, d: TodayData): Html {
  const fresh = new Set(d.notifications.map((n) => n.id));
  const seen = d.activity.filter((n) => !fresh.has(n.id));
  if (seen.length === 0) return html``;
  const items = seen.map((n) => html`<li>${typedText(n.message)} <span class="note">${formatLabel(n.created_at, pro.timezone, d.now)}</span></li>`);
  return html`<section aria-labelledby="lately">
    <h2 id="lately">What happened lately</h2>
    <p class="note">Bookings, moves and cancellations you have seen, newest first.</p>
    <ul>
      ${items}
    </ul>
  </section>`;
}

export function todayView(s: Signed, d: TodayData & CrewFilter, done: Done | null): Html {
  const today = localDate(d.now, s.pro.timezone);
  const todays = d.jobs.filter((b) => localDate(b.starts_at, s.pro.timezone) === today);
  const later = d.jobs.length - todays.length;
  const due = d.followUps.follow_ups.length;
  const crews = d.crews.length > 1;
  const schedule = d.crew ? `/dashboard/schedule?crew=${encodeURIComponent(d.crew.id)}` : '/dashboard/schedule';
  return html`${doneNotice(done)}
    <section aria-labelledby="today">
      <h2 id="today">Today's jobs</h2>
      ${crewFilterPart('/dashboard', d)} ${todaysList(s, d, todays, crews)}
      <p>
        <a href="${schedule}"
          >${later ? `${count(later, todays.length ? 'more job' : 'job')} coming up` : todays.length ? 'Nothing else booked yet' : 'Nothing booked yet'}: see
          your schedule</a
        >
      </p>
    </section>
    ${newSince(s, d)}
    <section aria-labelledby="todo">
      <h2 id="todo">Follow-ups</h2>
      <p>${due ? html`<a href="/dashboard/leads">${count(due, 'follow-up')} due now, with drafts</a>` : 'No follow-ups due now.'}</p>
    </section>
    ${bookingAddress(d.bookingPage)} ${activity(s.pro, d)}`;
}
