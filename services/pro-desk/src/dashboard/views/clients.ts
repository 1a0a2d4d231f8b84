import {
  CLEAN_TYPE_LABELS,
  CLIENT_NOTES_MAX,
  DIRECT_SOURCE_WORDS,
  FREQUENCY_LABELS,
  NO_CLIENTS_FOUND,
  NO_CLIENTS_YET,
  NO_TIMES_THESE_DAYS,
  VISIT_STATE_WORDS,
} from '@frontdesk/domain';
import { html, problemLine, safeUrl, startChoices, type AnswerOf, type Html, type Problem } from '@frontdesk/http';
import type { ProDeskOperationSet } from '../../operations';
import { csrfField, count, type Signed } from '../layout';
import { jobLink } from './job-card';
import { typedText, type Typed } from './typed-text';

/** The client list (`/dashboard/clients`) and a client's page: who, their visits and plans, the owner's notes, and booking them again. */

export type ClientsAnswer = AnswerOf<ProDeskOperationSet['list_clients']>;
export type ClientHistory = AnswerOf<ProDeskOperationSet['client_history']>;
type Visit = ClientHistory['upcoming'][number];

/** Where a client's page and its forms live; `q` keeps the list's search beside it. */
export const clientLink = (id: string, part?: 'notes' | 'book' | 'book/confirm', q?: string) =>
  `/dashboard/clients/${encodeURIComponent(id)}${part ? `/${part}` : ''}${q ? `?q=${encodeURIComponent(q)}` : ''}`;

const nameOf = (c: { name: string | null; email: string | null; phone: string | null }) => c.name ?? c.email ?? c.phone ?? 'A client';

function contact(c: { phone: string | null; email: string | null }): Html {
  const phone = c.phone && html`<a href="${safeUrl(`tel:${c.phone.replace(/[^0-9+]/g, '')}`)}">${typedText(c.phone)}</a>`;
  const email = c.email && html`<a href="${safeUrl(`mailto:${c.email}`)}">${typedText(c.email)}</a>`;
  return html`${phone}${phone && email && ' · '}${email}`;
}

const searchForm = (q: string): Html =>
  html`<form method="get" action="/dashboard/clients" role="search" class="client-search">
    <label for="q">Find a client by name, phone, email or street</label>
    <input id="q" name="q" type="search" value="${q}" maxlength="200" />
    <button type="submit">Search</button>
  </form>`;

/** The list: a search box, one line per client (who, how to reach them, their jobs), and the next page a link away. */
export function clientsListView(o: { found: ClientsAnswer; q: string; current?: string }): Html {
  const items = o.found.clients.map((c) => {
    const jobs = [count(c.booked_jobs, 'job booked', 'jobs booked'), c.next_visit && `next ${c.next_visit}`].filter(Boolean).join(', ');
    return html`<li>
      <a href="${clientLink(c.client_id, undefined, o.q)}" ${c.client_id === o.current && html` aria-current="page"`}>${typedText(nameOf(c))}</a>
      <span class="note">${contact(c)}</span>
      ${c.address && html`<span class="note">${typedText(c.address)}</span>`}
      <span class="note">${jobs}</span>
    </li>`;
  });
  const more = o.found.next_cursor && `/dashboard/clients?${new URLSearchParams({ ...(o.q ? { q: o.q } : {}), after: o.found.next_cursor }).toString()}`;
  return html`<section class="clients" aria-labelledby="clients-found">
    ${searchForm(o.q)}
    <h2 id="clients-found">${o.q ? `Clients matching “${o.q}”` : 'Your clients'}</h2>
    ${
      items.length
        ? html`<ul class="client-list">
            ${items}
          </ul>`
        : html`<p>${o.q ? NO_CLIENTS_FOUND : NO_CLIENTS_YET}</p>`
    }
    ${more && html`<p><a href="${more}">More clients</a></p>`}
  </section>`;
}

function visitLine(v: Visit, o: { upcoming: boolean }): Html {
  const state = VISIT_STATE_WORDS[v.status];
  const what = `${CLEAN_TYPE_LABELS[v.job.clean_type]}, ${v.job.bedrooms} bd / ${v.job.bathrooms} ba`;
  const plan = v.series_id && html` · <a href="/dashboard/plans/${encodeURIComponent(v.series_id)}">its plan</a>`;
  const acts =
    o.upcoming &&
    v.status === 'booked' &&
    html` · <a href="${jobLink(v.booking_id, 'move')}">Move</a> · <a href="${jobLink(v.booking_id, 'cancel')}">Cancel</a>`;
  return html`<li class="${v.status === 'cancelled' ? 'gone' : ''}">
    <strong>${v.label}</strong>${state && html` (${state})`}: ${what}, $${v.total.toFixed(2)}
    <span class="note">${typedText(v.address)} · ${typedText(v.crew_name)}${plan}${acts}</span>
  </li>`;
}

const visitList = (visits: Visit[], o: { upcoming: boolean; none: string }): Html =>
  visits.length
    ? html`<ul class="visit-list">
        ${visits.map((v) => visitLine(v, o))}
      </ul>`
    : html`<p>${o.none}</p>`;

function plansPart(plans: ClientHistory['plans']): Html {
  if (!plans.length) return html``;
  const items = plans.map(
    (p) =>
      html`<li>
        ${FREQUENCY_LABELS[p.frequency]} plan:
        ${p.ended ? 'ended' : p.next_visit ? `next visit ${p.next_visit}` : 'no visit booked'}${p.crew_name && html`, ${typedText(p.crew_name)}`}
        <a href="/dashboard/plans/${encodeURIComponent(p.series_id)}">Manage this plan</a>
      </li>`,
  );
  return html`<section aria-labelledby="plans">
    <h2 id="plans">Recurring plans</h2>
    <ul>
      ${items}
    </ul>
  </section>`;
}

function leadsPart(leads: ClientHistory['leads']): Html {
  if (!leads.length) return html``;
  const items = leads.map(
    (l) =>
      html`<li>
        Came in through ${DIRECT_SOURCE_WORDS[l.source] ?? 'another way'} on
        ${l.logged_at.slice(0, 10)}${l.quote_total !== null && html`, quoted $${l.quote_total.toFixed(2)}`} (${l.status})
      </li>`,
  );
  return html`<section aria-labelledby="leads">
    <h2 id="leads">As a lead</h2>
    <ul>
      ${items}
    </ul>
  </section>`;
}

/** The owner's notes about the client: as saved, or as typed when the form was refused. */
function notesForm(s: Signed, h: ClientHistory, o: { typed?: Typed; problem?: Problem; q: string }): Html {
  const value = o.typed?.notes ?? h.client.notes ?? '';
  return html`<section aria-labelledby="notes-head" id="notes">
    <h2 id="notes-head">Your notes</h2>
    ${problemLine(o.problem)}
    <form method="post" action="${clientLink(h.client.client_id, 'notes', o.q)}">
      ${csrfField(s)}
      <label for="notes-text">What you keep about ${typedText(nameOf(h.client))} (only you see it)</label>
      <textarea id="notes-text" name="notes" rows="5" maxlength="${CLIENT_NOTES_MAX}" ${o.problem && html` aria-invalid="true"`}>${value}</textarea>
      <button type="submit">Save notes</button>
    </form>
  </section>`;
}

/** A client's page: how to reach them, booking them again, the owner's notes, plans, visits to come and past ones. */
export function clientView(s: Signed, h: ClientHistory, o: { typed?: Typed; problem?: Problem; q: string }): Html {
  const c = h.client;
  const again = h.upcoming.length + h.past.length > 0;
  return html`<article class="client" aria-labelledby="client-name">
    <h2 id="client-name">${typedText(nameOf(c))}</h2>
    <p>${contact(c)}</p>
    ${c.address && html`<p>${typedText(c.address)}${c.zip && html`, ${c.zip}`}</p>`}
    <p>Booked in all: <strong>$${h.total_booked.toFixed(2)}</strong> over ${count(h.booked_visits, 'visit')} (cancelled ones and no-shows aside).</p>
    ${again && html`<p><a href="${clientLink(c.client_id, 'book', o.q)}">Book again</a>: the same job at the same address, at a time you pick.</p>`}
    ${notesForm(s, h, o)} ${plansPart(h.plans)}
    <section aria-labelledby="upcoming">
      <h2 id="upcoming">Coming up</h2>
      ${visitList(h.upcoming, { upcoming: true, none: 'Nothing booked ahead.' })}
    </section>
    <section aria-labelledby="past">
      <h2 id="past">Past visits</h2>
      ${visitList(h.past, { upcoming: false, none: 'No visits yet.' })}
    </section>
    ${leadsPart(h.leads)}
  </article>`;
}

/** The list and the detail side by side on a wide screen; on a phone the detail first, the list after it. */
export const twoColumns = (detail: Html, list: Html): Html =>
  html`<div class="two-cols">
    <div class="col-detail">${detail}</div>
    <div class="col-list">${list}</div>
  </div>`;

/** The job a "book again" repeats: the newest visit's, as a line. */
export const againWhat = (name: string, v: Visit): Html =>
  html`${CLEAN_TYPE_LABELS[v.job.clean_type]} for ${typedText(name)}, ${v.job.bedrooms} bd / ${v.job.bathrooms}
  ba${v.job.add_ons.length ? `, ${v.job.add_ons.join(', ')}` : ''}${v.job.pets ? ', pets' : ''}, at ${typedText(v.address)}`;

/** Open times for booking a client again, a week at a time, with the weeks before and after a link away. */
export function bookAgainTimesView(o: {
  client: ClientHistory['client'];
  visit: Visit;
  times: { start: string; label: string }[];
  total: number | null;
  weeks: { from: string; earlier: string | null; later: string };
  q: string;
  problem?: Problem;
}): Html {
  const id = o.client.client_id;
  const week = (from: string) => `${clientLink(id, 'book')}?${new URLSearchParams({ from, ...(o.q ? { q: o.q } : {}) }).toString()}`;
  return html`${problemLine(o.problem)}
    <p><strong>${againWhat(nameOf(o.client), o.visit)}</strong>${o.total !== null && html`, $${o.total.toFixed(2)} by your price list today`}.</p>
    ${
      o.times.length
        ? html`<form method="get" action="${clientLink(id, 'book/confirm')}">
            ${o.q && html`<input type="hidden" name="q" value="${o.q}" />`}<input type="hidden" name="from" value="${o.weeks.from}" />
            ${startChoices(o.times)}
            <button type="submit">Next: check the booking</button>
          </form>`
        : html`<p>${NO_TIMES_THESE_DAYS}</p>`
    }
    <nav class="move-days" aria-label="Other weeks">
      ${o.weeks.earlier && html`<a href="${week(o.weeks.earlier)}">Earlier days</a>`}
      <a href="${week(o.weeks.later)}">Later days</a>
    </nav>
    <p><a href="${clientLink(id, undefined, o.q)}">Back to ${typedText(nameOf(o.client))}</a></p>`;
}

/** The confirmation: what will be booked, when; the form carries a key minted here, so sending it twice books once. */
export function bookAgainConfirmView(
  s: Signed,
  o: { client: ClientHistory['client']; visit: Visit; start: string; label: string; once: string; from: string; q: string },
): Html {
  const id = o.client.client_id;
  return html`<p>Book <strong>${againWhat(nameOf(o.client), o.visit)}</strong> on <strong>${o.label}</strong>, priced by your price list today?</p>
    <p>We do not tell ${typedText(nameOf(o.client))}: you let them know the time.</p>
    <form method="post" action="${clientLink(id, 'book', o.q)}">
      ${csrfField(s)}<input type="hidden" name="start" value="${o.start}" /><input type="hidden" name="once" value="${o.once}" /><input
        type="hidden"
        name="from"
        value="${o.from}"
      /><button type="submit">Book this cleaning</button>
    </form>
    <p><a href="${clientLink(id, 'book', o.q)}">Pick another time</a></p>`;
}
