import { formatLabel, PROPERTY_MAX_FEEDS } from '@frontdesk/domain';
import type { Crew } from '@frontdesk/db';
import { html, inputField, problemLine, type AnswerOf, type FieldLabels, type Html, type Problem } from '@frontdesk/http';
import type { ProDeskOperationSet } from '../../operations';
import { count, csrfField, listAndDetail, postButton, sideNav, type Done, type Signed } from '../layout';
import { crewSelect } from './crews';
import { doneNotice } from './notices';
import { typedText, type Typed } from './typed-text';

/**
 * Properties (`/dashboard/properties`, issue 37): the rentals whose calendars become turnover
 * cleans, each calendar's last read in words, and the form that adds one; a property's page
 * (`/dashboard/properties/<id>`) with its stays and their cleans on one timeline (booked, with
 * the job a link away; proposed, with "Accept"; needing attention, with why and what fixes it),
 * "Read the calendars now", its times, crew and planning, and removing it.
 */

export type ShownProperty = AnswerOf<ProDeskOperationSet['list_properties']>['properties'][number];
type ShownStay = ShownProperty['stays'][number];
type ShownFeed = ShownProperty['feeds'][number];

export type PropertyPart = 'add' | 'times' | 'remove';

/** A refused property form: which one, what was typed, and the problem in the owner's words. */
export interface PropertyRefused {
  part: PropertyPart;
  values: Typed;
  problem: Problem;
}

/** Where a property's page and its forms live. */
export const propertyLink = (id: string, part?: 'sync' | 'times' | 'remove') => `/dashboard/properties/${encodeURIComponent(id)}${part ? `/${part}` : ''}`;
export const acceptLink = (id: string, stayId: string) => `${propertyLink(id)}/stays/${encodeURIComponent(stayId)}/accept`;

const TIMES_LABELS: FieldLabels = {
  checkout_time: 'Guests check out at',
  checkin_time: 'Guests check in at',
  crew_id: 'Crew that cleans it',
  mode: 'How cleans are planned',
};

/** The labels of each property form by the operation's field path: what a refusal names instead of the path. */
export const PROPERTY_LABELS: Record<PropertyPart, FieldLabels> = {
  add: {
    name: 'Name of the property',
    address: 'Street address',
    zip: 'ZIP code',
    bedrooms: 'Bedrooms',
    bathrooms: 'Bathrooms',
    pets: 'Pets stay there',
    host_name: "Host's name",
    host_phone: "Host's phone",
    host_email: "Host's email",
    calendar_urls: 'Calendar addresses',
    ...TIMES_LABELS,
  },
  times: TIMES_LABELS,
  remove: { cancel_turnovers: 'Cancel its upcoming turnovers too' },
};

const SOURCE_WORDS: Record<string, string> = { airbnb: 'Airbnb', vrbo: 'Vrbo', booking: 'Booking.com', ical: 'a calendar' };

/** A day as "Wed, Nov 25". */
function dayWords(day: string): string {
  const d = new Date(`${day}T12:00:00Z`);
  return d.toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** A calendar's last read, in people's words. */
export function feedWords(f: ShownFeed, zone: string, now: Date): string {
  if (!f.last_read) return 'Not read yet: it is read within a few minutes.';
  const when = formatLabel(new Date(f.last_read), zone, now);
  const listed = f.stays_listed === null ? '' : `, ${count(f.stays_listed, 'stay')} listed`;
  if (f.outcome === 'failing')
    return `Could not be read on ${when}: ${f.reason ?? 'no reason given'}. Nothing was changed from it; its stays stand as last read.`;
  if (f.outcome === 'unchanged') return `Read on ${when}: unchanged since the read before${listed}.`;
  return `Read on ${when}: fine${listed}.`;
}

function feedList(p: ShownProperty, zone: string, now: Date): Html {
  return html`<ul class="feeds">
    ${p.feeds.map(
      (f) =>
        html`<li class="${f.outcome === 'failing' ? 'failing' : ''}">
          <span class="url">${typedText(f.url)}</span>
          <span class="${f.outcome === 'failing' ? 'error' : 'note'}">${feedWords(f, zone, now)}</span>
        </li>`,
    )}
  </ul>`;
}

const stayCounts = (p: ShownProperty): string => {
  const of = (c: ShownStay['clean']) => p.stays.filter((s) => s.clean === c).length;
  const parts = [
    count(p.stays.length, 'upcoming stay'),
    of('booked') && `${of('booked')} booked`,
    of('proposed') && `${of('proposed')} to accept`,
    of('needs_attention') && `${of('needs_attention')} need${of('needs_attention') === 1 ? 's' : ''} you`,
  ];
  return parts.filter(Boolean).join(', ');
};

/** The properties page: every property with its calendars' last reads, and the form that adds one. */
export function propertiesView(s: Signed, d: { properties: ShownProperty[]; crews: Crew[]; now: Date; done: Done | null; refused?: PropertyRefused }): Html {
  const zone = s.pro.timezone;
  const items = d.properties.map(
    (p) =>
      html`<li class="property">
        <h3><a href="${propertyLink(p.property_id)}">${typedText(p.name)}</a></h3>
        <p class="note">${typedText(p.address)} · ${stayCounts(p)} · ${p.mode === 'book' ? 'cleans are booked' : 'cleans wait for you to accept'}</p>
        ${feedList(p, zone, d.now)}
      </li>`,
  );
  const list = html`<section aria-labelledby="properties">
    <h2 id="properties">Your rentals</h2>
    <p class="note">
      Each guest stay in a rental's calendars gets a turnover clean between checkout and the next check-in. Calendars are read every 15 minutes.
    </p>
    ${
      items.length
        ? html`<ul class="property-list">
            ${items}
          </ul>`
        : html`<p>No rentals yet: add the first with its calendar addresses.</p>`
    }
  </section>`;
  const refused = d.refused?.part === 'add' ? d.refused : undefined;
  return html`${doneNotice(d.done)} ${listAndDetail(list, addForm(s, d.crews, refused), { even: true })}`;
}

const timeField = (name: 'checkout_time' | 'checkin_time', value: string, problem?: Problem) =>
  inputField({ label: TIMES_LABELS[name]!, name, value, type: 'time', attrs: html` required` }, problem);

function modeChoice(chosen: string): Html {
  const option = (value: string, words: string) =>
    html`<label><input type="radio" name="mode" value="${value}" ${chosen === value && html` checked`} />${words}</label>`;
  return html`<fieldset>
    <legend>How cleans are planned</legend>
    ${option('book', 'Book each clean on my schedule')}<br />
    ${option('propose', 'Propose each clean; I accept it here')}
  </fieldset>`;
}

/** The property's times, crew and planning fields, as saved or as typed. */
function planningFields(v: { checkout_time: string; checkin_time: string; crew_id: string; mode: string }, crews: Crew[], problem?: Problem): Html {
  return html`<div class="pair">
      <div>${timeField('checkout_time', v.checkout_time, problem)}</div>
      <div>${timeField('checkin_time', v.checkin_time, problem)}</div>
    </div>
    ${crewSelect({ id: 'f-crew_id', name: 'crew_id', label: TIMES_LABELS.crew_id!, crews, chosen: v.crew_id, problem, first: 'Any free crew' })}
    ${modeChoice(v.mode)}`;
}

function addForm(s: Signed, crews: Crew[], refused: PropertyRefused | undefined): Html {
  const v = refused?.values ?? {};
  const p = refused?.problem;
  const text = (name: string, attrs: Html, type = 'text', hint?: string) =>
    inputField({ label: PROPERTY_LABELS.add[name]!, name, value: v[name] ?? '', type, attrs, ...(hint ? { hint } : {}) }, p);
  const urlsWrong = p?.field === 'calendar_urls';
  return html`<section aria-labelledby="add" id="add-section">
    <h2 id="add">Add a rental</h2>
    ${problemLine(p)}
    <form method="post" action="/dashboard/properties" novalidate>
      ${csrfField(s)} ${text('name', html` maxlength="100" required`)} ${text('address', html` maxlength="200" required autocomplete="street-address"`)}
      ${text('zip', html` inputmode="numeric" maxlength="10" required autocomplete="postal-code"`)}
      <div class="pair">
        <div>${text('bedrooms', html` inputmode="numeric" required`)}</div>
        <div>${text('bathrooms', html` inputmode="decimal" required`)}</div>
      </div>
      <label><input type="checkbox" name="pets" ${v.pets === 'on' && html` checked`} />Pets stay there</label>
      ${text('host_name', html` maxlength="100" required`)}
      ${text('host_phone', html` maxlength="30" autocomplete="off"`, 'tel', 'A phone or an email is needed: the host is the customer of these cleans.')}
      ${text('host_email', html` maxlength="200" autocomplete="off"`, 'email')}
      <label for="f-calendar_urls">Calendar addresses</label>
      <span class="note" id="f-calendar_urls-hint"
        >The iCal export links from Airbnb, Vrbo, Booking.com or another calendar, one a line, up to ${PROPERTY_MAX_FEEDS}.</span
      >
      <textarea
        id="f-calendar_urls"
        name="calendar_urls"
        rows="3"
        required
        aria-describedby="f-calendar_urls-hint${urlsWrong ? ' f-calendar_urls-error' : ''}"
        ${urlsWrong && html` aria-invalid="true"`}
      >
${v.calendar_urls ?? ''}</textarea
      >${urlsWrong && html`<span class="error" id="f-calendar_urls-error">${p?.text}</span>`}
      ${planningFields(
        { checkout_time: v.checkout_time ?? '11:00', checkin_time: v.checkin_time ?? '15:00', crew_id: v.crew_id ?? '', mode: v.mode ?? 'book' },
        crews,
        p,
      )}
      <button type="submit">Add this rental</button>
    </form>
  </section>`;
}

/** What a stay's clean is, in a line, with what the owner can do about it. */
function cleanLine(s: Signed, p: ShownProperty, stay: ShownStay): Html {
  if (stay.clean === 'booked' && stay.booking_id)
    return html`<span class="clean ok">Turnover booked: ${stay.label}${stay.crew_name && html`, ${typedText(stay.crew_name)}`}.</span>
      <a href="/dashboard/jobs/${encodeURIComponent(stay.booking_id)}">Open the job</a>`;
  if (stay.clean === 'proposed')
    return html`<span class="clean">Turnover proposed for ${stay.label}.</span>
      ${postButton(s, { action: acceptLink(p.property_id, stay.stay_id), label: `Accept the turnover on ${stay.label}` })}`;
  if (stay.clean === 'needs_attention')
    return html`<span class="clean error">Needs you: ${stay.attention}</span>
      <span class="note"
        >Free that time (time off, another job), <a href="#times">change the times or the crew</a>, or read the calendars again once the host has changed the
        stay.</span
      >`;
  return html`<span class="clean note">No turnover planned: its checkout has passed, or its clean was cancelled.</span>`;
}

/** The stays and their cleans, in date order, on one list. */
function timeline(s: Signed, p: ShownProperty): Html {
  if (!p.stays.length) return html`<p>No upcoming stays in the calendars${p.feeds.some((f) => f.last_read) ? '' : ' yet: they have not been read'}.</p>`;
  return html`<ol class="stays">
    ${p.stays.map(
      (stay) =>
        html`<li class="${stay.clean}">
          <strong>Guests ${dayWords(stay.check_in)} to ${dayWords(stay.checkout)}</strong>
          <span class="note">from ${SOURCE_WORDS[stay.source] ?? 'a calendar'}</span>
          ${cleanLine(s, p, stay)}
        </li>`,
    )}
  </ol>`;
}

/** One property's page, the business's properties listed beside it. */
export function propertyView(
  s: Signed,
  d: { property: ShownProperty; properties: ShownProperty[]; crews: Crew[]; now: Date; done: Done | null; refused?: PropertyRefused },
): Html {
  const p = d.property;
  const nav = sideNav(
    'Your rentals',
    d.properties.map((x) => [propertyLink(x.property_id), typedText(x.name)] as const),
    propertyLink(p.property_id),
    html`<a href="/dashboard/properties">All rentals</a>`,
  );
  const r = d.refused?.part === 'times' ? d.refused : undefined;
  const values = r?.values ?? { checkout_time: p.checkout_time, checkin_time: p.checkin_time, crew_id: p.crew_id ?? '', mode: p.mode };
  const detail = html`<p>
      ${typedText(p.address)}, ${typedText(p.zip)} · ${p.bedrooms} bd / ${p.bathrooms} ba${p.pets ? ' · pets' : ''} · host
      ${typedText(p.host_name)}${p.host_phone && html`, ${typedText(p.host_phone)}`}${p.host_email && html`, ${typedText(p.host_email)}`}
    </p>
    <section aria-labelledby="stays">
      <h2 id="stays">Stays and cleans</h2>
      <p class="note">
        Each clean goes between checkout (${p.checkout_time}) and the next check-in (${p.checkin_time}), at the earliest time a crew is free.
        ${p.mode === 'propose' ? 'Cleans wait for you to accept them.' : 'Cleans are booked on your schedule.'}
      </p>
      ${timeline(s, p)}
    </section>
    <section aria-labelledby="calendars">
      <h2 id="calendars">Calendars</h2>
      ${feedList(p, s.pro.timezone, d.now)} ${postButton(s, { action: propertyLink(p.property_id, 'sync'), label: 'Read the calendars now' })}
    </section>
    <section aria-labelledby="times" id="times-section">
      <h2 id="times">Times, crew and planning</h2>
      ${problemLine(r?.problem)}
      <form method="post" action="${propertyLink(p.property_id, 'times')}" novalidate>
        ${csrfField(s)}
        ${planningFields(
          { checkout_time: values.checkout_time ?? '', checkin_time: values.checkin_time ?? '', crew_id: values.crew_id ?? '', mode: values.mode ?? p.mode },
          d.crews,
          r?.problem,
        )}
        <button type="submit">Save and plan the cleans again</button>
      </form>
    </section>
    <section aria-labelledby="remove">
      <h2 id="remove">Remove</h2>
      <p><a href="${propertyLink(p.property_id, 'remove')}">Remove ${typedText(p.name)}</a></p>
    </section>`;
  return html`${doneNotice(d.done)} ${listAndDetail(nav, detail)}`;
}

/** The upcoming turnovers removing a property would leave behind: booked ones to come and proposals. */
export const upcomingCleans = (p: ShownProperty, now: Date) =>
  p.stays.filter((x) => (x.clean === 'booked' || x.clean === 'proposed') && x.start !== null && new Date(x.start) > now).length;

/** The confirmation before a property is removed; with upcoming turnovers, the choice to cancel them too. */
export function removePropertyView(s: Signed, d: { property: ShownProperty; upcoming: number; problem?: Problem; ticked?: boolean }): Html {
  const p = d.property;
  const cleans = d.upcoming
    ? html`<p>
          ${typedText(p.name)} has ${count(d.upcoming, 'upcoming turnover')}. A rental with turnovers to come is removed only with them: they are cancelled, and
          the host is not messaged.
        </p>
        <label><input type="checkbox" name="cancel_turnovers" value="yes" ${d.ticked && html` checked`} />Cancel its upcoming turnovers too</label>`
    : html`<p>${typedText(p.name)} has no upcoming turnovers. Its past cleans stay on your records.</p>`;
  return html`${problemLine(d.problem)}
    <form method="post" action="${propertyLink(p.property_id, 'remove')}">${csrfField(s)}${cleans}<button type="submit">Remove ${p.name}</button></form>
    <p><a href="${propertyLink(p.property_id)}">Keep it</a></p>`;
}
