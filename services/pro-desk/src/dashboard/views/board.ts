import {
  BOARD_MAX_JOBS,
  CLEAN_TYPE_LABELS,
  boardFlags,
  boardRowCount,
  boardRows,
  boardWindow,
  closedSaid,
  crewHoursSaid,
  formatDay,
  hoursOnDay,
  jobsNeedALook,
  minutesOnDay,
  timeOffLabel,
  timeOffSaid,
  type BoardDay,
  type BoardWeek,
  type DayMinutes,
  type LocalDate,
  type WeeklyHours,
} from '@frontdesk/domain';
import type { BoardJob, Pro, TimeOffRow } from '@frontdesk/db';
import type { BoardData } from '@frontdesk/use-cases';
import { errorLine, html, type Html } from '@frontdesk/http';
import { typedText } from './typed-text';

/**
 * The dispatch board (`/dashboard/board`): a table of the business's crews (rows) by the
 * week's days (columns). Each day's cell is a column of 15-minute rows where the crew's working
 * hours and time off are shaded and each booked job is a link to its page, placed by its start
 * and as tall as it is long; a job outside its crew's hours or in time off says so. Below 64rem
 * the same table reads as each crew's days, one job a line (the style sheet's board section).
 */

export const BOARD_PATH = '/dashboard/board';
export const jobPagePath = (id: string) => `/dashboard/jobs/${encodeURIComponent(id)}`;
const weekHref = (day: LocalDate) => `${BOARD_PATH}?date=${day}`;

/** A row of the board: a crew of the business, or one removed since that still has a job this week. */
interface BoardCrew {
  id: string;
  name: string;
  hours: WeeklyHours;
}

/** `9:00 AM`, `12:30 PM`: minutes of a day as a block says them. */
function clock(minutes: number): string {
  const h = Math.floor(minutes / 60) % 24;
  return `${h % 12 === 0 ? 12 : h % 12}:${String(minutes % 60).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}
const spanSaid = (m: DayMinutes) => `${clock(m.from)} to ${m.to >= 1440 ? 'midnight' : clock(m.to)}`;

/** Every row of the board: the crews in crew order, then any crew a job of the week names that is gone. */
function boardCrews(pro: Pro, data: BoardData): BoardCrew[] {
  const rows = data.crews.map((c) => ({ id: c.id, name: c.name, hours: c.weekly_hours ?? pro.weekly_hours }));
  for (const j of data.jobs) if (!rows.some((r) => r.id === j.crew_id)) rows.push({ id: j.crew_id, name: j.crew_name, hours: pro.weekly_hours });
  return rows;
}

/** A job as the board draws it: its day, its minutes on that day, and what needs a look. */
interface Placed {
  job: BoardJob;
  day: LocalDate;
  minutes: DayMinutes;
  flags: string[];
}

function placeJobs(pro: Pro, data: BoardData, crews: Map<string, BoardCrew>): Placed[] {
  const zone = pro.timezone;
  return data.jobs.flatMap((job) => {
    const t = job.starts_at.getTime();
    const day = data.week.spans.find((d) => t >= d.from && t < d.to);
    const minutes = day && minutesOnDay({ start: job.starts_at, end: job.ends_at }, day, zone);
    const crew = crews.get(job.crew_id)!;
    return day && minutes ? [{ job, day: day.date, minutes, flags: boardFlags(job, crew, { timeOff: data.timeOff, zone }) }] : [];
  });
}

/** One crew's day: its hours, its time off and the business's, in minutes and in words. */
interface CrewDay {
  hours: DayMinutes[];
  off: DayMinutes[];
  said: string[];
}

function crewDay(crew: BoardCrew, day: BoardDay, o: { timeOff: TimeOffRow[]; zone: string }): CrewDay {
  const hours = hoursOnDay(crew.hours, day.date);
  const said = [crewHoursSaid(hours.map(spanSaid))];
  const off: DayMinutes[] = [];
  for (const t of o.timeOff.filter((x) => x.crew_id === crew.id || x.crew_id === null)) {
    const m = minutesOnDay({ start: t.starts_at, end: t.ends_at }, day, o.zone);
    if (!m) continue;
    off.push(m);
    const what = timeOffLabel(t.starts_at, t.ends_at, o.zone);
    said.push(t.crew_id === null ? closedSaid(what, t.note) : timeOffSaid(what, t.note));
  }
  return { hours, off, said };
}

const rowClasses = (m: DayMinutes, window: DayMinutes) => {
  const r = boardRows(m, window);
  return `r${r.row} h${r.rows}`;
};

function block(p: Placed, window: DayMinutes): Html {
  const b = p.job;
  return html`<a class="block ${rowClasses(p.minutes, window)}${p.flags.length ? ' flagged' : ''}" href="${jobPagePath(b.id)}" data-job="${b.id}">
    <span>${clock(p.minutes.from)} to ${clock(p.minutes.to)}</span><strong>${typedText(b.customer_name)}</strong><span>${CLEAN_TYPE_LABELS[b.clean_type]}</span
    ><span>${typedText(b.address)}</span>${p.flags.map((f) => html`<span class="flag">${f}</span>`)}
  </a>`;
}

function dayCell(o: { crew: BoardCrew; day: BoardDay; jobs: Placed[]; window: DayMinutes; today: LocalDate; data: BoardData; zone: string }): Html {
  const { window } = o;
  const day = o.day.date;
  const d = crewDay(o.crew, o.day, { timeOff: o.data.timeOff, zone: o.zone });
  const shades = [
    ...d.hours.map((m) => html`<span class="shade ${rowClasses(m, window)}" aria-hidden="true"></span>`),
    ...d.off.map((m) => html`<span class="shade off ${rowClasses(m, window)}" aria-hidden="true"></span>`),
  ];
  const empty = o.jobs.length === 0 && d.off.length === 0;
  return html`<td class="${[empty && 'empty', day === o.today && 'today'].filter(Boolean).join(' ')}" data-day="${day}">
    <p class="day-name">${formatDay(day)}</p>
    <p class="said">${d.said.join(' ')}${o.jobs.length ? '' : ' No jobs.'}</p>
    <div class="slots"><span class="frame r1 h${boardRowCount(window)}" aria-hidden="true"></span>${shades}${o.jobs.map((p) => block(p, window))}</div>
  </td>`;
}

/** The jobs that need a look, above the board, each a link to its page. */
function needALook(placed: Placed[], crews: Map<string, BoardCrew>): Html {
  const flagged = placed.filter((p) => p.flags.length);
  if (flagged.length === 0) return html``;
  const items = flagged.map((p) => {
    const crew = crews.get(p.job.crew_id)!;
    return html`<li>
      <a href="${jobPagePath(p.job.id)}">${formatDay(p.day)}, ${clock(p.minutes.from)}: ${typedText(p.job.customer_name)}</a> (${typedText(crew.name)}):
      ${p.flags.join(' ')}
    </li>`;
  });
  return html`<section aria-labelledby="look" class="board-look">
    <h2 id="look">Needs a look</h2>
    <p>${jobsNeedALook(flagged.length)}</p>
    <ul>
      ${items}
    </ul>
  </section>`;
}

/** The week's links and the date box (a GET form, so it works without script). */
export function boardTools(week: BoardWeek | null, o: { typed?: string; thisWeek: LocalDate }): Html {
  const links = week
    ? html`<a href="${weekHref(week.previous)}" rel="prev">Previous week</a> <a href="${weekHref(o.thisWeek)}">This week</a>
        <a href="${weekHref(week.next)}" rel="next">Next week</a>`
    : html`<a href="${BOARD_PATH}">This week</a>`;
  return html`<div class="board-tools">
    <nav aria-label="Weeks">${links}</nav>
    <form method="get" action="${BOARD_PATH}" class="board-pick">
      <label>Go to the week of <input type="date" name="date" value="${o.typed ?? week?.start ?? ''}" /></label>
      <button type="submit">Show that week</button>
    </form>
  </div>`;
}

export function boardView(pro: Pro, data: BoardData, o: { today: LocalDate; thisWeek: LocalDate }): Html {
  const zone = pro.timezone;
  const crews = boardCrews(pro, data);
  const crewById = new Map(crews.map((c) => [c.id, c]));
  const placed = placeJobs(pro, data, crewById);
  const window = boardWindow([...placed.map((p) => p.minutes), ...crews.flatMap((c) => data.week.days.flatMap((d) => hoursOnDay(c.hours, d)))]);
  const byCell = new Map<string, Placed[]>();
  for (const p of placed) {
    const cell = `${p.job.crew_id} ${p.day}`;
    const jobs = byCell.get(cell);
    if (jobs) jobs.push(p);
    else byCell.set(cell, [p]);
  }
  const rows = crews.map(
    (crew) =>
      html`<tr data-crew="${crew.id}">
        <th scope="row">${typedText(crew.name)}</th>
        ${data.week.spans.map((day) => dayCell({ crew, day, jobs: byCell.get(`${crew.id} ${day.date}`) ?? [], window, today: o.today, data, zone }))}
      </tr>`,
  );
  const last = data.week.days[6]!;
  return html`${boardTools(data.week, { thisWeek: o.thisWeek })}
    ${data.more && html`<p class="error">This week has more than ${BOARD_MAX_JOBS} jobs: the board shows the first ${BOARD_MAX_JOBS}.</p>`}
    ${needALook(placed, crewById)}
    <table class="board">
      <caption>
        Jobs by crew from ${formatDay(data.week.start)} to ${formatDay(last)}: ${placed.length === 1 ? '1 job' : `${placed.length} jobs`}. Each day runs from
        ${clock(window.from)} to ${window.to >= 1440 ? 'midnight' : clock(window.to)}, a line an hour; working hours are shaded green, time off striped.
      </caption>
      <thead>
        <tr>
          <th scope="col" class="crew-col">Crew</th>
          ${data.week.days.map((day) => html`<th scope="col" class="${day === o.today ? 'today' : ''}">${formatDay(day)}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>`;
}

/** A week that could not be shown: the sentence, and the date box to pick another. */
export const boardRefusedView = (message: string, o: { typed: string; thisWeek: LocalDate }): Html =>
  html`${errorLine(message)} ${boardTools(null, { typed: o.typed, thisWeek: o.thisWeek })}`;
