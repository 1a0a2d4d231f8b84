import {
  CLEAN_TYPE_LABELS,
  RELEASE_HOLD_SAYS,
  formatLabel,
  formatTimeOfDay,
  formatUsd,
  holdGoneOnDashboard,
  localDate,
  pencilledInFor,
  type HoldGone,
} from '@frontdesk/domain';
import type { NamedHold, Pro } from '@frontdesk/db';
import { html, problemLine, type Html, type Problem } from '@frontdesk/http';
import { postButton, type Signed } from '../layout';
import { jobSize } from './job-card';
import { typedText } from './typed-text';

/** The times the business pencilled in (holds on its own host), as Today and Schedule list them, and the page before releasing one. */

/** Where a release goes back to: the page its link was on. */
export type ReleaseBack = 'today' | 'schedule';
export const releaseBackOf = (value: unknown): ReleaseBack => (value === 'today' ? 'today' : 'schedule');
export const RELEASE_BACK_PATH: Record<ReleaseBack, '/dashboard' | '/dashboard/schedule'> = { today: '/dashboard', schedule: '/dashboard/schedule' };

export const holdReleaseLink = (id: string, back: ReleaseBack) => `/dashboard/holds/${encodeURIComponent(id)}/release${back === 'today' ? '?back=today' : ''}`;

/** Until when a hold keeps its time: the time of day when that is today, else the day too. */
const until = (h: NamedHold, pro: Pro, now: Date) =>
  localDate(h.expires_at, pro.timezone) === localDate(now, pro.timezone)
    ? formatTimeOfDay(h.expires_at, pro.timezone)
    : formatLabel(h.expires_at, pro.timezone, now);

/** For whom and until when, as a sentence: "Pencilled in for Dana until 5:00 PM EST; not booked yet". */
const pencilled = (h: NamedHold, pro: Pro, now: Date) => pencilledInFor({ leadName: h.lead_name, forLead: h.lead_id !== null, until: until(h, pro, now) });

/** The job a hold keeps, in words: "Standard clean, 2 bd / 1 ba, $125.00". */
const heldJob = (h: NamedHold) => `${CLEAN_TYPE_LABELS[h.job.clean_type]}, ${jobSize(h.job)}, ${formatUsd(h.price_cents)}`;

/** One pencilled-in time: when, for whom and until when, the job, its crew when there are several, and its release. */
export function holdCard(h: NamedHold, pro: Pro, o: { now: Date; crews: boolean; back: ReleaseBack }): Html {
  return html`<article class="job hold">
    <h3>${formatLabel(h.starts_at, pro.timezone, o.now)}</h3>
    <p><strong>${typedText(`${pencilled(h, pro, o.now)}.`)}</strong></p>
    <p>${heldJob(h)}</p>
    ${o.crews && html`<p class="crew-of-job">Crew: <strong>${typedText(h.crew_name)}</strong></p>`}
    <p class="job-actions"><a href="${holdReleaseLink(h.id, o.back)}">Release</a></p>
  </article>`;
}

/** Pencilled-in times as cards; nothing when there are none. */
export const holdList = (holds: NamedHold[], pro: Pro, o: { now: Date; crews: boolean; back: ReleaseBack }): Html =>
  html`${holds.map((h) => holdCard(h, pro, o))}`;

/**
 * The page before releasing a pencilled-in time: what it keeps and exactly what releasing does;
 * when it no longer counts, that instead, with no button.
 */
export function releaseHoldView(s: Signed, h: NamedHold, o: { now: Date; gone: HoldGone | null; back: ReleaseBack; crews: boolean; problem?: Problem }): Html {
  const label = formatLabel(h.starts_at, s.pro.timezone, o.now);
  const backLink = html`<p><a href="${RELEASE_BACK_PATH[o.back]}">Back to ${o.back === 'today' ? 'today' : 'your schedule'}</a></p>`;
  if (o.gone)
    return html`<p class="note">${typedText(holdGoneOnDashboard(o.gone, label, h.lead_name))}</p>
      ${backLink}`;
  return html`${problemLine(o.problem)}
    <p><strong>${label}</strong>: ${typedText(pencilled(h, s.pro, o.now))}.</p>
    <p>${heldJob(h)}${o.crews && html`; crew ${typedText(h.crew_name)}`}.</p>
    <p>${RELEASE_HOLD_SAYS}</p>
    ${postButton(s, { action: holdReleaseLink(h.id, 'schedule'), label: 'Release this time', hidden: { back: o.back } })} ${backLink}`;
}
