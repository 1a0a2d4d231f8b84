import { localDate } from '@frontdesk/domain';
import type { Booking } from '@frontdesk/db';
import { html, type Html } from '@frontdesk/http';
import type { Done, Signed } from '../layout';
import { doneNotice, jobList } from './parts';

/** Schedule (`/dashboard/schedule`): today's jobs and every one ahead, each with its move, cancel or no-show. */
export function scheduleView(s: Signed, d: { now: Date; jobs: Booking[] }, done: Done | null): Html {
  const today = localDate(d.now, s.pro.timezone);
  const todays = d.jobs.filter((b) => localDate(b.starts_at, s.pro.timezone) === today);
  const later = d.jobs.filter((b) => localDate(b.starts_at, s.pro.timezone) !== today);
  return html`${doneNotice(done)}
    <section aria-labelledby="today">
      <h2 id="today">Today</h2>
      ${jobList(todays, s.pro, { now: d.now, none: 'No jobs today.' })}
    </section>
    <section aria-labelledby="later">
      <h2 id="later">Coming up</h2>
      ${jobList(later, s.pro, { now: d.now, none: 'Nothing booked yet.' })}
    </section>`;
}
