import { formatLabel } from '@frontdesk/domain';
import type { CalendarFeed } from '@frontdesk/db';
import { html, type Html } from '@frontdesk/http';
import { postButton, type Done, type Signed } from '../layout';
import { doneNotice } from './notices';

/** Keys and calendar (`/dashboard/keys`): the assistant's key and the calendar address, each shown once when made. */
export function keysView(s: Signed, d: { now: Date; calendar: CalendarFeed | undefined; publicUrl: string; done: Done | null }): Html {
  const feed = d.calendar
    ? html`<p>
        Your calendar subscribes to a secret address ending in …${d.calendar.token_hint}, made ${formatLabel(d.calendar.created_at, s.pro.timezone, d.now)}.
      </p>`
    : html`<p>Subscribe your own calendar (Google, Apple, Outlook) to your jobs.</p>`;
  return html`${doneNotice(d.done)}
    <section aria-labelledby="key">
      <h2 id="key">Your assistant's key</h2>
      <p>Your assistant uses the business's key. Making a new one stops the old key at once.</p>
      <p><a href="/dashboard/key">Make a new key</a></p>
    </section>
    <section aria-labelledby="calendar">
      <h2 id="calendar">Calendar</h2>
      ${feed}
      <p class="note">The address starts ${d.publicUrl}/calendar/; it is shown once when made, and making a new one ends the old.</p>
      ${postButton(s, { action: '/dashboard/calendar', label: d.calendar ? 'Make a new calendar address' : 'Make my calendar address' })}
    </section>`;
}

/** The confirmation before a new key: one tap would otherwise stop the assistant. */
export const newKeyConfirmView = (s: Signed): Html =>
  html`<p>Your current key stops working the moment you make a new one: your assistant cannot reach Front Desk until you give it the new key.</p>
    ${postButton(s, { action: '/dashboard/key', label: 'Stop the old key and make a new one' })}
    <p><a href="/dashboard/keys">Keep the current key</a></p>`;
