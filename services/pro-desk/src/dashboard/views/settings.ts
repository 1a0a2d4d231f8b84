import { WEEKDAYS, presentWeeklyHours, toUsd } from '@frontdesk/domain';
import type { Pro, TimeOffRow } from '@frontdesk/db';
import { presentTimeOff } from '@frontdesk/use-cases';
import { html, inputField, problemLine, type FieldLabels, type Html, type Problem } from '@frontdesk/http';
import { csrfField, listAndDetail, sideNav, type Done, type Signed } from '../layout';
import { bookingAddress } from './booking-address';
import { doneNotice } from './notices';
import { typedText, type Typed } from './typed-text';

/**
 * Settings (`/dashboard/settings`): an index of short pages, each its own address under
 * /dashboard/settings/ with one form (prices, add-ons, hours, service area, time off, notices,
 * the booking page), the list of pages beside it. Each form posts to its old address
 * (/dashboard/<part>, which shows its page on a GET too) and shows the business as it is, or,
 * after a refusal, what was typed with the field marked. A form's input is named as the last
 * part of the operation's field path (`prices.base` → `base`), so a refusal about a path marks
 * the input of that name.
 */

export type SettingsPart = 'hours' | 'prices' | 'add-ons' | 'area' | 'profile' | 'mail' | 'messages' | 'time-off';

/** The settings pages in the order the index lists them: each page's address, title, its form and a line about it. */
export const SETTINGS_PAGES = {
  prices: { title: 'Prices', part: 'prices', about: 'What a clean costs, and the discounts of recurring plans.' },
  'add-ons': { title: 'Add-ons', part: 'add-ons', about: 'Extras a customer can add to a clean.' },
  hours: { title: 'Working hours', part: 'hours', about: 'The days and hours customers can book.' },
  area: { title: 'Service area', part: 'area', about: 'The ZIP codes you clean in, and the time you keep between jobs.' },
  'time-off': { title: 'Time off', part: 'time-off', about: 'Days no one can book.' },
  notices: { title: 'Notices', part: 'mail', about: 'Which mails Front Desk sends you.' },
  messages: { title: 'Customer messages', part: 'messages', about: 'Reminders before a job, and a request for a review after it.' },
  'booking-page': { title: 'Booking page', part: 'profile', about: "Your booking page's address, your name and contacts, and how soon customers can book." },
} as const satisfies Record<string, { title: string; part: SettingsPart; about: string }>;
export type SettingsPage = keyof typeof SETTINGS_PAGES;

/** A settings page's address. */
export const settingsLink = (page: SettingsPage) => `/dashboard/settings/${page}`;

/** The page a form is on. */
export const settingsPageOf = (part: SettingsPart): SettingsPage =>
  (Object.keys(SETTINGS_PAGES) as SettingsPage[]).find((page) => SETTINGS_PAGES[page].part === part)!;

/** A refused form: which one, what was typed, and the problem in people's words. */
export interface Refused {
  part: SettingsPart;
  values: Typed;
  problem: Problem;
}

const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);

const ORDINAL = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

/** `add_ons[1].price` → "Price of the second add-on": the add-ons the form sends, in the order it lists them. */
function addOnLabels(): FieldLabels {
  const fields = { name: 'Name', label: 'Label', price: 'Price', minutes: 'Minutes' };
  const labels: Record<string, string> = { add_ons: 'Add-ons' };
  ORDINAL.forEach((nth, i) => {
    labels[`add_ons[${i}]`] = `The ${nth} add-on`;
    for (const [key, label] of Object.entries(fields)) labels[`add_ons[${i}].${key}`] = `${label} of the ${nth} add-on`;
  });
  return labels;
}

/** The labels of each form by the operation's field path: what a refusal's sentence names instead of the path. */
export const SETTINGS_LABELS: Record<SettingsPart, FieldLabels> = {
  hours: Object.fromEntries(WEEKDAYS.map((day) => [`working_hours.${day}`, capital(day)])),
  prices: {
    'prices.base': 'Base, USD',
    'prices.per_bedroom': 'Per bedroom, USD',
    'prices.per_bathroom': 'Per bathroom, USD',
    'prices.minimum': 'Minimum, USD',
    'prices.pets_fee': 'Pets fee, USD',
    'prices.crew_size': 'Crew size',
    'prices.frequency_discounts_pct.weekly': 'Weekly discount, %',
    'prices.frequency_discounts_pct.biweekly': 'Biweekly discount, %',
    'prices.frequency_discounts_pct.monthly': 'Monthly discount, %',
    'prices.first_visit': 'First visit of a recurring plan',
    prices: 'Prices',
  },
  'add-ons': addOnLabels(),
  profile: {
    name: 'Business name',
    phone: 'Phone',
    email: 'Contact email',
    website: 'Website',
    service_zips: 'Service ZIPs',
    travel_buffer_minutes: 'Travel buffer between jobs, minutes',
    slot_step_minutes: 'Start times every, minutes',
    min_notice_hours: 'Notice needed, hours',
    host_turnovers: 'When a rental host asks you for turnover cleans',
  },
  area: { service_zips: 'Service ZIPs', travel_buffer_minutes: 'Travel buffer between jobs, minutes' },
  mail: { email_me_customer_changes: 'Email me when a customer books, moves or cancels', owner_agenda: "Email me the day's jobs each morning at" },
  messages: {
    customer_reminders: 'Reminders',
    'customer_reminders[0]': 'First reminder, hours before the job',
    'customer_reminders[1]': 'Second reminder, hours before the job',
    review_request: 'Review request',
    'review_request.link': 'Your review page',
    'review_request.delay_hours': 'Hours after the job ends',
  },
  'time-off': { start: 'First day off', end: 'Last day off', note: 'Note (optional)', time_off_id: 'Time off' },
};

/** The problem as the form's inputs know it: the field path's last part is the input's name. */
const onInput = (problem: Problem | undefined): Problem | undefined =>
  problem && { text: problem.text, ...(problem.field ? { field: problem.field.split('.').pop()! } : {}) };

interface FormOf {
  s: Signed;
  values: Typed;
  problem?: Problem;
}

const decimal = html` inputmode="decimal"`;
const numeric = html` inputmode="numeric"`;

/** A settings form in its section; `title` only where its page holds more than this form (the page's heading names it otherwise). */
function settingsForm(f: FormOf, o: { id: SettingsPart; title?: string; button: string; body: Html; intro?: Html }): Html {
  const heading = o.title && html`<h2 id="${o.id}">${o.title}</h2>`;
  return html`<section ${o.title ? html`aria-labelledby="${o.id}"` : html`aria-label="${SETTINGS_PAGES[settingsPageOf(o.id)].title}"`} id="${o.id}-section">
    ${heading} ${o.intro} ${problemLine(f.problem)}
    <form method="post" action="/dashboard/${o.id}" novalidate>${csrfField(f.s)}${o.body}<button type="submit">${o.button}</button></form>
  </section>`;
}

function hoursForm(f: FormOf): Html {
  const body = WEEKDAYS.map((day) =>
    inputField({ label: capital(day), name: day, value: f.values[day] ?? '', attrs: html` placeholder="closed"` }, onInput(f.problem)),
  );
  const intro = html`<p class="note">Windows as 08:00-17:00, several separated by commas; leave a day empty to close it.</p>`;
  return settingsForm(f, { id: 'hours', button: 'Save hours', body: html`${body}`, intro });
}

function pricesForm(f: FormOf): Html {
  const p = onInput(f.problem);
  const field = (label: string, name: string, attrs = decimal) => inputField({ label, name, value: f.values[name] ?? '', attrs }, p);
  const discounted = f.values.first_visit !== 'full_price';
  const body = html`${field('Base, USD', 'base')}${field('Per bedroom, USD', 'per_bedroom')}${field('Per bathroom, USD', 'per_bathroom')}
    ${field('Minimum, USD', 'minimum')}${field('Pets fee, USD', 'pets_fee')}${field('Crew size', 'crew_size', numeric)}
    ${field('Weekly discount, %', 'weekly')}${field('Biweekly discount, %', 'biweekly')}${field('Monthly discount, %', 'monthly')}
    <label for="f-first_visit">First visit of a recurring plan</label>
    <select id="f-first_visit" name="first_visit">
      <option value="discounted" ${discounted && html` selected`}>discounted</option>
      <option value="full_price" ${!discounted && html` selected`}>full price</option>
    </select>`;
  return settingsForm(f, { id: 'prices', button: 'Save prices', body });
}

function addOnRow(f: FormOf, i: number): Html {
  const v = (k: string) => f.values[`addon_${k}_${i}`] ?? '';
  const existing = f.values[`addon_existing_${i}`] === '1';
  const field = (label: string, k: string, attrs?: Html) => inputField({ label, name: `addon_${k}_${i}`, value: v(k), ...(attrs ? { attrs } : {}) }, f.problem);
  return html`<fieldset class="add-on">
    <legend>${existing ? v('label') || v('name') : 'A new add-on'}</legend>
    ${existing && html`<input type="hidden" name="addon_existing_${i}" value="1" />`}
    <div class="pair">
      <div>${field('Name (lower case, e.g. inside fridge)', 'name')}</div>
      <div>${field('Label', 'label')}</div>
    </div>
    <div class="pair">
      <div>${field('Price, USD', 'price', decimal)}</div>
      <div>${field('Minutes', 'minutes', numeric)}</div>
    </div>
    ${existing && html`<label><input type="checkbox" name="addon_remove_${i}" value="1" ${v('remove') === '1' && html`checked`} /> Stop offering it</label>`}
  </fieldset>`;
}

/**
 * The input a refusal about `add_ons[k].price` is about: the k-th row the form sent (rows left
 * empty or stopped are not sent, as forms.ts reads them).
 */
function addOnProblem(f: FormOf, rows: number): Problem | undefined {
  const m = /^add_ons\[(\d+)\]\.(name|label|price|minutes)$/.exec(f.problem?.field ?? '');
  if (!f.problem || !m) return f.problem;
  let sent = -1;
  for (let i = 0; i < rows; i++) {
    const blank = (f.values[`addon_name_${i}`] ?? '').trim() === '' && (f.values[`addon_label_${i}`] ?? '').trim() === '';
    if (blank || f.values[`addon_remove_${i}`] === '1') continue;
    sent += 1;
    if (sent === Number(m[1])) return { text: f.problem.text, field: `addon_${m[2]}_${i}` };
  }
  return f.problem;
}

function addOnsForm(f: FormOf): Html {
  const rows = Math.min(Number(f.values.rows) || 1, 40);
  const marked = { ...f, problem: addOnProblem(f, rows) };
  const body = html`<input type="hidden" name="rows" value="${rows}" />${Array.from({ length: rows }, (_, i) => addOnRow(marked, i))}`;
  return settingsForm(f, { id: 'add-ons', button: 'Save add-ons', body });
}

type FieldOf = (label: string, name: string, o?: { type?: string; attrs?: Html; hint?: string }) => Html;
const fieldsOf =
  (f: FormOf): FieldOf =>
  (label, name, o = {}) =>
    inputField({ label, name, value: f.values[name] ?? '', ...o }, onInput(f.problem));

/** The business as its booking page shows it: name, contacts, and when customers can start. */
function profileForm(f: FormOf): Html {
  const field = fieldsOf(f);
  const body = html`${field('Business name', 'name')}${field('Phone', 'phone', { type: 'tel' })}${field('Contact email', 'email', { type: 'email' })}
    ${field('Website', 'website', { type: 'url' })}${field('Start times every, minutes', 'slot_step_minutes', { attrs: numeric })}
    ${field('Notice needed, hours', 'min_notice_hours', { attrs: decimal })}
    <label for="f-host_turnovers">When a rental host asks you for turnover cleans</label>
    <select id="f-host_turnovers" name="host_turnovers">
      <option value="propose" ${f.values.host_turnovers !== 'book' && html` selected`}>show me each clean to accept</option>
      <option value="book" ${f.values.host_turnovers === 'book' && html` selected`}>book each clean at once</option>
    </select>`;
  return settingsForm(f, { id: 'profile', title: 'Your business on it', button: 'Save', body });
}

/** Where the business cleans, and the time it keeps between jobs. */
function areaForm(f: FormOf): Html {
  const field = fieldsOf(f);
  const body = html`${field('Service ZIPs', 'service_zips', { attrs: numeric })}
  ${field('Travel buffer between jobs, minutes', 'travel_buffer_minutes', { attrs: numeric })}`;
  const intro = html`<p class="note">ZIP codes separated by commas. Customers outside them are told you do not clean there.</p>`;
  return settingsForm(f, { id: 'area', button: 'Save the area', body, intro });
}

/** Which mails the owner gets: a notice of each customer's booking, move and cancel (on unless turned off), and the morning agenda (7:00 unless changed). */
function mailForm(f: FormOf): Html {
  const on = f.values.email_me_customer_changes === 'on';
  const agenda = fieldsOf(f)("Email me the day's jobs each morning at", 'owner_agenda', {
    type: 'time',
    hint: 'Your local time. Crews with an email get their own jobs too. Leave it empty for no morning email.',
  });
  const body = html`<p>
      <label><input type="checkbox" name="email_me_customer_changes" ${on && html`checked`} /> Email me when a customer books, moves or cancels</label>
    </p>
    ${agenda}`;
  const intro = html`<p class="note">Sent to the address you sign in with. Bookings you make yourself are never mailed, to you or your customer.</p>`;
  return settingsForm(f, { id: 'mail', button: 'Save', body, intro });
}

/** What customers are sent on their own: reminders (up to two) and a review request. */
function messagesForm(f: FormOf): Html {
  const field = fieldsOf(f);
  const reviewOn = f.values.review_on === 'on';
  const body = html`<fieldset>
      <legend>Reminders</legend>
      ${field('First reminder, hours before the job', 'customer_reminders[0]', { attrs: numeric })}
      ${field('Second reminder, hours before the job (optional)', 'customer_reminders[1]', { attrs: numeric })}
    </fieldset>
    <fieldset>
      <legend>Review request</legend>
      <p>
        <label><input type="checkbox" name="review_on" ${reviewOn && html`checked`} /> Ask for a review after each job</label>
      </p>
      ${field('Your review page', 'link', { attrs: html` inputmode="url" placeholder="https://"` })}
      ${field('Hours after the job ends', 'delay_hours', { attrs: numeric })}
    </fieldset>`;
  const intro = html`<p class="note">
    Emailed to each customer who gave an address, in your business's name, with a link to stop them. Leave both reminder boxes empty to send none. A reminder is
    1 to 168 hours before the job; a review request 1 to 72 hours after it.
  </p>`;
  return settingsForm(f, { id: 'messages', button: 'Save', body, intro });
}

function timeOffForm(f: FormOf, timeOff: TimeOffRow[]): Html {
  const p = onInput(f.problem);
  const rows = timeOff.map((t) => {
    const shown = presentTimeOff(t, f.s.pro.timezone);
    const href = `/dashboard/time-off/${encodeURIComponent(t.id)}/remove`;
    const crew = shown.crew_name && html`, ${typedText(shown.crew_name)} only`;
    return html`<li>${shown.label}${crew}${shown.note && ` (${shown.note})`} <a href="${href}">Remove</a></li>`;
  });
  const body = html`${inputField({ label: 'First day off', name: 'start', value: f.values.start ?? '', type: 'date', attrs: html` required` }, p)}
  ${inputField({ label: 'Last day off', name: 'end', value: f.values.end ?? '', type: 'date', attrs: html` required` }, p)}
  ${inputField({ label: 'Note (optional)', name: 'note', value: f.values.note ?? '', attrs: html` maxlength="200"` }, p)}`;
  const intro = rows.length
    ? html`<ul>
        ${rows}
      </ul>`
    : html`<p>No time off ahead.</p>`;
  return settingsForm(f, { id: 'time-off', button: 'Take these days off', body, intro });
}

/** Each form's values as the business is now. */
export function currentValues(pro: Pro): Record<SettingsPart, Typed> {
  const hours = presentWeeklyHours(pro.weekly_hours);
  const l = pro.price_list;
  const addOns = Object.entries(l.add_ons).sort(([a], [b]) => a.localeCompare(b));
  const rows: Typed = { rows: String(addOns.length + 1) };
  addOns.forEach(([name, a], i) =>
    Object.assign(rows, {
      [`addon_name_${i}`]: name,
      [`addon_label_${i}`]: a.label,
      [`addon_price_${i}`]: String(toUsd(a.price_cents)),
      [`addon_minutes_${i}`]: String(a.minutes),
      [`addon_existing_${i}`]: '1',
    }),
  );
  const text = (v: string | number | null) => (v === null ? '' : String(v));
  return {
    hours: Object.fromEntries(WEEKDAYS.map((day) => [day, hours[day].join(', ')])),
    prices: {
      base: text(toUsd(l.base_cents)),
      per_bedroom: text(toUsd(l.per_bedroom_cents)),
      per_bathroom: text(toUsd(l.per_bathroom_cents)),
      minimum: text(toUsd(l.minimum_cents)),
      pets_fee: text(toUsd(l.pets_fee_cents)),
      crew_size: text(l.crew_size),
      weekly: text(l.frequency_discount_pct.weekly ?? 0),
      biweekly: text(l.frequency_discount_pct.biweekly ?? 0),
      monthly: text(l.frequency_discount_pct.monthly ?? 0),
      first_visit: l.first_visit_discounted ? 'discounted' : 'full_price',
    },
    'add-ons': rows,
    area: { service_zips: pro.service_zips.join(', '), travel_buffer_minutes: text(pro.travel_buffer_minutes) },
    profile: {
      name: pro.name,
      phone: text(pro.phone),
      email: text(pro.email),
      website: text(pro.website),
      slot_step_minutes: text(pro.slot_step_minutes),
      min_notice_hours: text(pro.min_notice_minutes / 60),
      host_turnovers: pro.host_turnovers,
    },
    mail: { ...(pro.email_me_customer_changes ? { email_me_customer_changes: 'on' } : {}), owner_agenda: text(pro.owner_agenda) },
    messages: {
      'customer_reminders[0]': text(pro.customer_reminder_hours[0] ?? null),
      'customer_reminders[1]': text(pro.customer_reminder_hours[1] ?? null),
      ...(pro.review_link === null ? {} : { review_on: 'on' }),
      link: text(pro.review_link),
      delay_hours: text(pro.review_delay_hours),
    },
    'time-off': {},
  };
}

/** What a settings page shows: the business's time off (on its page), its booking page's address, the last result, a refused form. */
export interface SettingsData {
  timeOff: TimeOffRow[];
  bookingPage: string;
  done: Done | null;
  refused?: Refused;
}

/** The list of settings pages beside each one. */
const settingsNav = (current: SettingsPage | null): Html =>
  sideNav(
    'Settings',
    (Object.keys(SETTINGS_PAGES) as SettingsPage[]).map((page) => [settingsLink(page), SETTINGS_PAGES[page].title] as const),
    current && settingsLink(current),
    html`<a href="/dashboard/settings">All settings</a>`,
  );

/** One settings page: its form (the business as it is, or as typed after a refusal), the list of pages beside it. */
export function settingsView(s: Signed, page: SettingsPage, d: SettingsData): Html {
  const { part } = SETTINGS_PAGES[page];
  const f: FormOf = d.refused?.part === part ? { s, values: d.refused.values, problem: d.refused.problem } : { s, values: currentValues(s.pro)[part] };
  const forms: Record<SettingsPart, () => Html> = {
    hours: () => hoursForm(f),
    prices: () => pricesForm(f),
    'add-ons': () => addOnsForm(f),
    area: () => areaForm(f),
    profile: () => html`${bookingAddress(d.bookingPage)} ${profileForm(f)}`,
    mail: () => mailForm(f),
    messages: () => messagesForm(f),
    'time-off': () => timeOffForm(f, d.timeOff),
  };
  return html`${doneNotice(d.done)} ${listAndDetail(settingsNav(page), forms[part]())}`;
}

/** The settings index: each page with a line about it, and the booking page's address. */
export function settingsIndexView(bookingPage: string): Html {
  const items = (Object.keys(SETTINGS_PAGES) as SettingsPage[]).map(
    (page) => html`<li><a href="${settingsLink(page)}">${SETTINGS_PAGES[page].title}</a>: ${SETTINGS_PAGES[page].about}</li>`,
  );
  return html`<ul class="settings-index">
      ${items}
    </ul>
    ${bookingAddress(bookingPage)}`;
}

/** The confirmation before time off is removed: its days are offered to customers again. */
export function removeTimeOffConfirmView(s: Signed, t: TimeOffRow): Html {
  const shown = presentTimeOff(t, s.pro.timezone);
  return html`<p>
      <strong>${shown.label}${shown.note && ` (${shown.note})`}</strong>
    </p>
    <p>Removing this time off offers these days to customers again, within your working hours.</p>
    <form method="post" action="/dashboard/time-off/remove">
      ${csrfField(s)}<input type="hidden" name="time_off_id" value="${t.id}" /><button type="submit">Remove this time off</button>
    </form>
    <p><a href="${settingsLink('time-off')}">Keep it</a></p>`;
}
