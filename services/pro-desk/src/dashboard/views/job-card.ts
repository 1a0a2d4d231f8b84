import { CLEAN_TYPE_LABELS, formatLabel, formatUsd } from '@frontdesk/domain';
import type { Booking, Pro } from '@frontdesk/db';
import { html, safeUrl, type Html } from '@frontdesk/http';
import { planOfCard } from './plan-link';
import { typedText } from './typed-text';

/** A job as the dashboard's day, schedule and crew pages show it, with the links to what can be done to it. */

/** Where a job's actions live: its confirmation pages. */
export const jobLink = (id: string, action: 'cancel' | 'move' | 'no-show' | 'crew' | 'on-my-way') => `/dashboard/jobs/${encodeURIComponent(id)}/${action}`;

/** Text parts as sentences: each ends with one full stop, whatever the person typed at its end. */
const sentences = (parts: (string | null | false)[]) =>
  parts
    .filter((p): p is string => Boolean(p && p.trim()))
    .map((p) => `${p.trim().replace(/[.\s]+$/, '')}.`)
    .join(' ');

/** A job's size as the cards say it: "2 bd / 1 ba, fridge, pets". */
export const jobSize = (j: { bedrooms: number; bathrooms: number | string; add_ons: string[]; pets: boolean }) =>
  `${j.bedrooms} bd / ${j.bathrooms} ba${j.add_ons.length ? `, ${j.add_ons.join(', ')}` : ''}${j.pets ? ', pets' : ''}`;

function contactLinks(b: Booking): Html {
  const phone = b.customer_phone && html`<a href="${safeUrl(`tel:${b.customer_phone.replace(/[^0-9+]/g, '')}`)}">${typedText(b.customer_phone)}</a>`;
  const email = b.customer_email && html`<a href="${safeUrl(`mailto:${b.customer_email}`)}">${typedText(b.customer_email)}</a>`;
  return html`${phone}${phone && email && ' · '}${email}`;
}

/** The links to what can be done to a job now: move, cancel or (with several crews) give it to another crew before it starts, a no-show after; a no-show reported is said instead. */
function jobActions(b: Booking, now: Date, crews: boolean): Html {
  if (b.status === 'no_show') return html`<p class="job-status"><strong>No-show</strong>: reported; the job stays in your records.</p>`;
  if (b.status !== 'booked') return html``;
  if (b.starts_at.getTime() <= now.getTime()) return html`<p class="job-actions"><a href="${jobLink(b.id, 'no-show')}">Report a no-show</a></p>`;
  return html`<p class="job-actions">
    <a href="${jobLink(b.id, 'move')}">Move</a> <a href="${jobLink(b.id, 'cancel')}">Cancel</a>
    ${crews && html`<a href="${jobLink(b.id, 'crew')}">Change crew</a>`}
  </p>`;
}

/**
 * One job as the owner reads it: when, what, who, where, how to reach them, and what can be
 * done; with several crews, which crew does it.
 */
export function jobCard(b: Booking, pro: Pro, now: Date, o: { crews?: boolean; more?: (b: Booking) => Html } = {}): Html {
  const crews = o.crews ?? false;
  const size = jobSize(b);
  const by = b.channel === 'pro' ? 'Booked by you' : 'Booked by a customer';
  const details = sentences([
    `${size}; ${by}${b.client_name ? ` through ${b.client_name}` : ''}`,
    b.notes && `Notes: ${b.notes}`,
    b.access_details && `Access: ${b.access_details}`,
  ]);
  return html`<article class="job${b.status === 'no_show' ? ' no-show' : ''}">
    <h3>${formatLabel(b.starts_at, pro.timezone, now)}${b.status === 'no_show' ? ' (no-show)' : ''}</h3>
    <p>${CLEAN_TYPE_LABELS[b.clean_type]} for ${typedText(b.customer_name)}, ${formatUsd(b.price_cents)}</p>
    ${planOfCard(b)} ${crews && html`<p class="crew-of-job">Crew: <strong>${typedText(b.crew_name)}</strong></p>`}
    <p>${typedText(b.address)}, ${b.zip}</p>
    <p>${contactLinks(b)}</p>
    <p class="note">${typedText(details)}</p>
    ${jobActions(b, now, crews)} ${o.more?.(b)}
  </article>`;
}

/** Jobs as a list, or a sentence when there are none. */
export const jobList = (jobs: Booking[], pro: Pro, o: { now: Date; none: string; crews?: boolean; more?: (b: Booking) => Html }): Html =>
  jobs.length ? html`${jobs.map((b) => jobCard(b, pro, o.now, o))}` : html`<p>${o.none}</p>`;
