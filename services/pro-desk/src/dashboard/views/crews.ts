import { WEEKDAYS, formatLabel, presentWeeklyHours, type WeeklyHours } from '@frontdesk/domain';
import type { Booking, Crew, CrewCalendarFeed, Pro, TimeOffRow } from '@frontdesk/db';
import { presentTimeOff } from '@frontdesk/use-cases';
import { html, inputField, problemLine, type FieldLabels, type Html, type Problem } from '@frontdesk/http';
import { count, csrfField, listAndDetail, postButton, sideNav, type Done, type Signed } from '../layout';
import { jobLink } from './job-card';
import { doneNotice } from './notices';
import { typedText, type Typed } from './typed-text';

/**
 * Crews (`/dashboard/crews`): the business's crews, each with its hours, whether it takes jobs
 * and how many it has ahead; a page per crew (`/dashboard/crews/<id>`) with its forms: rename,
 * its own hours or the business's, take no new jobs or take them again, its time off, its own
 * calendar address for the cleaner's phone, and removing it. Every form runs the crew
 * operations the API runs; a refused form comes back as typed.
 */

export type CrewPart = 'add' | 'name' | 'email' | 'hours' | 'time-off' | 'active' | 'calendar' | 'remove';

/** A refused crew form: which one, what was typed, and the problem in the owner's words. */
export interface CrewRefused {
  part: CrewPart;
  values: Typed;
  problem: Problem;
}

const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** The labels of each crew form by the operation's field path: what a refusal names instead of the path. */
export const CREW_LABELS: Record<CrewPart, FieldLabels> = {
  add: { name: 'Name of the new crew' },
  name: { name: 'Crew name' },
  email: { email: "Crew's email for its morning jobs" },
  hours: { ...Object.fromEntries(WEEKDAYS.map((day) => [`working_hours.${day}`, capital(day)])), working_hours: 'Working hours' },
  'time-off': { start: 'First day off', end: 'Last day off', note: 'Note (optional)' },
  active: {},
  calendar: {},
  remove: { reassign_to: 'Give its jobs to' },
};

/** Where a crew's page and its forms live. */
export const crewLink = (id: string, part?: CrewPart) => `/dashboard/crews/${encodeURIComponent(id)}${part ? `/${part}` : ''}`;

const SHORT_DAY: Record<string, string> = { monday: 'Mon', tuesday: 'Tue', wednesday: 'Wed', thursday: 'Thu', friday: 'Fri', saturday: 'Sat', sunday: 'Sun' };

/** A week's hours in a line: "Mon 08:00-17:00 · Tue 08:00-17:00 …", closed days left out. */
export function hoursLine(hours: WeeklyHours): string {
  const shown = presentWeeklyHours(hours) as Record<string, string[]>;
  const days = WEEKDAYS.filter((d) => (shown[d] ?? []).length > 0).map((d) => `${SHORT_DAY[d]} ${shown[d]!.join(', ')}`);
  return days.length ? days.join(' · ') : 'closed every day';
}

const hoursOf = (crew: Crew, pro: Pro) => crew.weekly_hours ?? pro.weekly_hours;

/** What a crew is now, in a line: takes jobs or not, whose hours, how many jobs ahead. */
const crewState = (crew: Crew, upcoming: number): string =>
  `${crew.active ? 'Takes jobs' : 'Takes no new jobs'} · ${crew.weekly_hours ? 'its own hours' : "the business's hours"} · ${count(upcoming, 'upcoming job')}`;

/** The problem as the form's inputs know it: the field path's last part is the input's name. */
const onInput = (problem: Problem | undefined): Problem | undefined =>
  problem && { text: problem.text, ...(problem.field ? { field: problem.field.split('.').pop()! } : {}) };

function crewForm(s: Signed, o: { id: string; title: string; action: string; button: string; body: Html; intro?: Html; problem?: Problem }): Html {
  return html`<section aria-labelledby="${o.id}" id="${o.id}-section">
    <h2 id="${o.id}">${o.title}</h2>
    ${o.intro} ${problemLine(o.problem)}
    <form method="post" action="${o.action}" novalidate>${csrfField(s)}${o.body}<button type="submit">${o.button}</button></form>
  </section>`;
}

/** The crews page: every crew with a link to its page, and the form that adds one. */
export function crewsView(s: Signed, d: { crews: Crew[]; upcoming: Map<string, number>; done: Done | null; refused?: CrewRefused }): Html {
  const items = d.crews.map(
    (c) =>
      html`<li class="crew">
        <h3><a href="${crewLink(c.id)}">${typedText(c.name)}</a></h3>
        <p>${crewState(c, d.upcoming.get(c.id) ?? 0)}</p>
        <p class="note">${hoursLine(hoursOf(c, s.pro))}</p>
        <p><a href="/dashboard/schedule?crew=${encodeURIComponent(c.id)}">See ${typedText(c.name)}'s day and week</a></p>
      </li>`,
  );
  const refused = d.refused?.part === 'add' ? d.refused : undefined;
  const body = inputField(
    { label: 'Name of the new crew', name: 'name', value: refused?.values.name ?? '', attrs: html` maxlength="60" required` },
    refused?.problem,
  );
  const list = html`<section aria-labelledby="crews">
    <h2 id="crews">Your crews</h2>
    <p class="note">Each crew does one job at a time. A time is offered to customers while at least one crew that takes jobs is free then.</p>
    <ul class="crew-list">
      ${items}
    </ul>
  </section>`;
  return html`${doneNotice(d.done)}
  ${listAndDetail(
    list,
    crewForm(s, {
      id: 'add',
      title: 'Add a crew',
      action: '/dashboard/crews',
      button: 'Add this crew',
      body,
      intro: html`<p class="note">A new crew works the business's hours until you give it its own.</p>`,
      ...(refused ? { problem: refused.problem } : {}),
    }),
    { even: true },
  )}`;
}

/** What one crew's page shows. */
export interface CrewPageData {
  crew: Crew;
  /** Every crew of the business, listed beside this one's page. */
  crews: Crew[];
  upcoming: number;
  feed: CrewCalendarFeed | undefined;
  timeOff: (TimeOffRow & { crew_name: string | null })[];
  publicUrl: string;
  now: Date;
  done: Done | null;
  refused?: CrewRefused;
}

function nameForm(s: Signed, d: CrewPageData, refused: CrewRefused | undefined): Html {
  const body = inputField(
    { label: 'Crew name', name: 'name', value: refused?.values.name ?? d.crew.name, attrs: html` maxlength="60" required` },
    refused?.problem,
  );
  return crewForm(s, {
    id: 'name',
    title: 'Name',
    action: crewLink(d.crew.id, 'name'),
    button: 'Rename',
    body,
    ...(refused ? { problem: refused.problem } : {}),
  });
}

/** Where the crew's own morning agenda goes (only its jobs), at the business's agenda time; empty for none. */
function emailForm(s: Signed, d: CrewPageData, refused: CrewRefused | undefined): Html {
  const body = inputField(
    {
      label: "Crew's email for its morning jobs",
      name: 'email',
      type: 'email',
      value: refused?.values.email ?? d.crew.email ?? '',
      hint: 'Each morning, at the time set under Settings, this crew is emailed only its own jobs of the day. Leave it empty for none.',
      attrs: html` maxlength="200"`,
    },
    refused?.problem,
  );
  return crewForm(s, {
    id: 'email',
    title: 'Morning email',
    action: crewLink(d.crew.id, 'email'),
    button: 'Save the email',
    body,
    ...(refused ? { problem: refused.problem } : {}),
  });
}

function hoursForm(s: Signed, d: CrewPageData, refused: CrewRefused | undefined): Html {
  const shown = presentWeeklyHours(hoursOf(d.crew, s.pro)) as Record<string, string[]>;
  const p = onInput(refused?.problem);
  const body = WEEKDAYS.map((day) =>
    inputField(
      { label: capital(day), name: day, value: refused ? (refused.values[day] ?? '') : (shown[day] ?? []).join(', '), attrs: html` placeholder="closed"` },
      p,
    ),
  );
  const intro = html`<p>
      ${
        d.crew.weekly_hours
          ? html`${typedText(d.crew.name)} works its own hours.`
          : html`${typedText(d.crew.name)} works the business's hours (<a href="/dashboard/settings/hours">set in Settings</a>).`
      }
    </p>
    <p class="note">Windows as 08:00-17:00, several separated by commas; leave a day empty to close it for this crew.</p>`;
  const form = crewForm(s, {
    id: 'hours',
    title: 'Working hours',
    action: crewLink(d.crew.id, 'hours'),
    button: 'Save its own hours',
    body: html`${body}`,
    intro,
    ...(refused ? { problem: refused.problem } : {}),
  });
  const back =
    d.crew.weekly_hours && postButton(s, { action: crewLink(d.crew.id, 'hours'), label: "Go back to the business's hours", hidden: { hours: 'business' } });
  return html`${form}${back}`;
}

function activeForm(s: Signed, d: CrewPageData, refused: CrewRefused | undefined): Html {
  const c = d.crew;
  const intro = c.active
    ? html`<p>${typedText(c.name)} takes jobs. A crew that takes no new jobs keeps the ones it has.</p>`
    : html`<p>${typedText(c.name)} takes no new jobs${d.upcoming ? html`, and still has ${count(d.upcoming, 'upcoming job')}` : ''}.</p>`;
  return html`<section aria-labelledby="active" id="active-section">
    <h2 id="active">Taking jobs</h2>
    ${intro} ${problemLine(refused?.problem)}
    ${postButton(s, {
      action: crewLink(c.id, 'active'),
      label: c.active ? 'Take no new jobs' : 'Take jobs again',
      hidden: { active: c.active ? 'no' : 'yes' },
    })}
  </section>`;
}

function timeOffForm(s: Signed, d: CrewPageData, refused: CrewRefused | undefined): Html {
  const p = onInput(refused?.problem);
  const v = refused?.values ?? {};
  const mine = d.timeOff.filter((t) => t.crew_id === d.crew.id || t.crew_id === null);
  const rows = mine.map((t) => {
    const shown = presentTimeOff(t, s.pro.timezone);
    const whose = t.crew_id === null ? ' (the whole business)' : '';
    return html`<li>
      ${shown.label}${whose}${shown.note && html` (${typedText(shown.note)})`} <a href="/dashboard/time-off/${encodeURIComponent(t.id)}/remove">Remove</a>
    </li>`;
  });
  const body = html`${inputField({ label: 'First day off', name: 'start', value: v.start ?? '', type: 'date', attrs: html` required` }, p)}
  ${inputField({ label: 'Last day off', name: 'end', value: v.end ?? '', type: 'date', attrs: html` required` }, p)}
  ${inputField({ label: 'Note (optional)', name: 'note', value: v.note ?? '', attrs: html` maxlength="200"` }, p)}`;
  const intro = rows.length
    ? html`<ul>
        ${rows}
      </ul>`
    : html`<p>No time off ahead for this crew.</p>`;
  return crewForm(s, {
    id: 'time-off',
    title: 'Time off for this crew',
    action: crewLink(d.crew.id, 'time-off'),
    button: 'Take these days off',
    body,
    intro,
    ...(refused ? { problem: refused.problem } : {}),
  });
}

function calendarPart(s: Signed, d: CrewPageData): Html {
  const feed = d.feed
    ? html`<p>${typedText(d.crew.name)}'s calendar address ends in …${d.feed.token_hint}, made ${formatLabel(d.feed.created_at, s.pro.timezone, d.now)}.</p>`
    : html`<p>Give a cleaner of this crew a calendar on their phone with only this crew's jobs.</p>`;
  return html`<section aria-labelledby="calendar" id="calendar-section">
    <h2 id="calendar">Calendar for the crew's phone</h2>
    ${feed}
    <p class="note">The address starts ${d.publicUrl}/calendar/; it is shown once when made, and making a new one ends the old.</p>
    ${postButton(s, { action: crewLink(d.crew.id, 'calendar'), label: d.feed ? 'Make a new address for this crew' : 'Make an address for this crew' })}
  </section>`;
}

/** One crew's page, the business's crews listed beside it: its forms, its day and week, its calendar, and removing it. */
export function crewView(s: Signed, d: CrewPageData): Html {
  const r = (part: CrewPart) => (d.refused?.part === part ? d.refused : undefined);
  const crews = d.crews.map((c) => [crewLink(c.id), typedText(c.name)] as const);
  const nav = sideNav('Your crews', crews, crewLink(d.crew.id), html`<a href="/dashboard/crews">All crews</a>`);
  return html`${doneNotice(d.done)} ${listAndDetail(nav, crewDetail(s, d, r))}`;
}

function crewDetail(s: Signed, d: CrewPageData, r: (part: CrewPart) => CrewRefused | undefined): Html {
  return html`<p>${crewState(d.crew, d.upcoming)}</p>
    <p><a href="/dashboard/schedule?crew=${encodeURIComponent(d.crew.id)}">See ${typedText(d.crew.name)}'s day and week</a></p>
    ${nameForm(s, d, r('name'))} ${emailForm(s, d, r('email'))} ${hoursForm(s, d, r('hours'))} ${activeForm(s, d, r('active'))}
    ${timeOffForm(s, d, r('time-off'))} ${calendarPart(s, d)}
    <section aria-labelledby="remove">
      <h2 id="remove">Remove</h2>
      <p><a href="${crewLink(d.crew.id, 'remove')}">Remove ${typedText(d.crew.name)}</a></p>
    </section>
    <p><a href="/dashboard/crews">Back to your crews</a></p>`;
}

/** A choice of crews as a select, none picked but `chosen`. */
export function crewSelect(o: { id: string; name: string; label: string; crews: Crew[]; chosen?: string; problem?: Problem; first?: string }): Html {
  const wrong = o.problem?.field === o.name;
  return html`<label for="${o.id}">${o.label}</label>
    <select id="${o.id}" name="${o.name}" ${wrong && html` aria-invalid="true" aria-describedby="${o.id}-error"`}>
      ${o.first !== undefined && html`<option value="">${o.first}</option>`}
      ${o.crews.map((c) => html`<option value="${c.id}" ${c.id === o.chosen && html` selected`}>${c.name}</option>`)}
    </select>
    ${wrong && html`<span class="error" id="${o.id}-error">${o.problem?.text}</span>`}`;
}

/** The confirmation before a crew is removed; with upcoming jobs, the crew to give them to. */
export function removeCrewView(s: Signed, d: { crew: Crew; others: Crew[]; upcoming: number; chosen?: string; problem?: Problem }): Html {
  const c = d.crew;
  const jobs = d.upcoming
    ? html`<p>${typedText(c.name)} has ${count(d.upcoming, 'upcoming job')}. Another crew takes them all at the same times, or nothing changes.</p>
        ${crewSelect({ id: 'f-reassign_to', name: 'reassign_to', label: 'Give its jobs to', crews: d.others, chosen: d.chosen, problem: d.problem, first: 'Pick a crew' })}`
    : html`<p>${typedText(c.name)} has no upcoming jobs. Its past jobs keep its name.</p>`;
  return html`${problemLine(d.problem)}
    <form method="post" action="${crewLink(c.id, 'remove')}">${csrfField(s)}${jobs}<button type="submit">Remove ${c.name}</button></form>
    <p><a href="${crewLink(c.id)}">Keep it</a></p>`;
}

/** A job's crew page: the crew doing it, and the other crews to give it to at the same time. */
export function assignJobView(s: Signed, b: Booking, d: { crews: Crew[]; now: Date; problem?: Problem; chosen?: string }): Html {
  const others = d.crews.filter((c) => c.id !== b.crew_id && c.active);
  const what = html`${typedText(b.customer_name)} on ${formatLabel(b.starts_at, s.pro.timezone, d.now)}`;
  const back = html`<p><a href="/dashboard/schedule">Back to your schedule</a></p>`;
  if (others.length === 0)
    return html`<p><strong>${what}</strong> is ${typedText(b.crew_name)}'s job.</p>
      <p>No other crew takes jobs now: <a href="/dashboard/crews">add or activate one</a> first.</p>
      ${back}`;
  return html`${problemLine(d.problem)}
    <p><strong>${what}</strong> is ${typedText(b.crew_name)}'s job.</p>
    <p>The job keeps its time and price; only the crew doing it changes. We do not tell ${typedText(b.customer_name)}.</p>
    <form method="post" action="${jobLink(b.id, 'crew')}">
      ${csrfField(s)}
      ${crewSelect({ id: 'f-crew_id', name: 'crew_id', label: 'Give the job to', crews: others, chosen: d.chosen, problem: d.problem, first: 'Pick a crew' })}
      <button type="submit">Give the job to this crew</button>
    </form>
    ${back}`;
}

/** The crew picker above a day or week: every crew, or one (a GET form, so the address names the crew). */
export function crewPicker(o: { action: string; crews: Crew[]; chosen?: string }): Html {
  return html`<form method="get" action="${o.action}" class="crew-picker">
    ${crewSelect({ id: 'f-crew', name: 'crew', label: 'Crew', crews: o.crews, chosen: o.chosen, first: 'Every crew' })}
    <button type="submit">Show</button>
  </form>`;
}
