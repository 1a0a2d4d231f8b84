import { localDate } from '@frontdesk/domain';
import type { Booking, Crew, NamedHold } from '@frontdesk/db';
import { html, type Html } from '@frontdesk/http';
import type { Done, Signed } from '../layout';
import { crewPicker } from './crews';
import { holdList } from './holds';
import { jobList } from './job-card';
import { doneNotice } from './notices';
import { typedText } from './typed-text';

/** Which crews a day or week shows: with several crews, the picker and each job's crew; `crew` when one is picked. */
export interface CrewFilter {
  crews: Crew[];
  crew?: Crew;
}

/** The crew picker and what it shows, above a day or week of a business with several crews. */
export function crewFilterPart(action: string, f: CrewFilter): Html {
  if (f.crews.length < 2) return html``;
  return html`${crewPicker({ action, crews: f.crews, chosen: f.crew?.id })}
    <p class="note">${f.crew ? html`Showing only ${typedText(f.crew.name)}'s jobs.` : "Showing every crew's jobs."}</p>`;
}

/**
 * Schedule (`/dashboard/schedule`): today's jobs and every one ahead, each with its move, cancel
 * or no-show, and the times pencilled in that still count, each with its release; one crew's when picked.
 */
export function scheduleView(s: Signed, d: { now: Date; jobs: Booking[]; holds: NamedHold[] } & CrewFilter, done: Done | null): Html {
  const today = localDate(d.now, s.pro.timezone);
  const todays = d.jobs.filter((b) => localDate(b.starts_at, s.pro.timezone) === today);
  const later = d.jobs.filter((b) => localDate(b.starts_at, s.pro.timezone) !== today);
  const crews = d.crews.length > 1;
  return html`${doneNotice(done)} ${crewFilterPart('/dashboard/schedule', d)}
    <section aria-labelledby="today">
      <h2 id="today">Today</h2>
      ${jobList(todays, s.pro, { now: d.now, none: 'No jobs today.', crews })}
    </section>
    ${
      d.holds.length > 0 &&
      html`<section aria-labelledby="pencilled">
        <h2 id="pencilled">Pencilled in (${d.holds.length})</h2>
        <p class="note">Times kept for a customer who has not said yes yet: no one else can book them until they run out or you release them.</p>
        ${holdList(d.holds, s.pro, { now: d.now, crews, back: 'schedule' })}
      </section>`
    }
    <section aria-labelledby="later">
      <h2 id="later">Coming up</h2>
      ${jobList(later, s.pro, { now: d.now, none: 'Nothing booked yet.', crews })}
    </section>`;
}
