import { CLEAN_TYPE_LABELS, WEEKDAYS, formatLabel, formatUsd, localDate, presentWeeklyHours, toUsd, type FREQUENCIES } from '@frontdesk/domain';
import type { Booking, CalendarFeed, Notification, Pro, TimeOffRow } from '@frontdesk/db';
import type { AffectedJob, PipelineReport, followUpsDue } from '@frontdesk/use-cases';
import { presentTimeOff } from '@frontdesk/use-cases';
import { errorLine, esc, htmlText } from '@frontdesk/http';

/** Everything the dashboard shows, read before rendering: the view itself reads nothing. */
export interface DashboardData {
  pro: Pro;
  now: Date;
  csrf: string;
  jobs: Booking[];
  notifications: Notification[];
  followUps: Awaited<ReturnType<typeof followUpsDue>>;
  pipeline: PipelineReport;
  timeOff: TimeOffRow[];
  calendar: CalendarFeed | undefined;
}

/** What the last action did: a sentence, jobs it touched, or a secret shown once. */
export interface Notice {
  ok: boolean;
  text: string;
  affected?: AffectedJob[];
  secret?: { id: string; label: string; value: string };
}

const hidden = (csrf: string) => `<input type="hidden" name="csrf" value="${esc(csrf)}">`;
const postForm = (action: string, csrf: string, body: string, label: string) =>
  `<form method="post" action="${action}">${hidden(csrf)}${body}<button type="submit">${esc(label)}</button></form>`;
const field = (label: string, name: string, value: string | number | null, extra = '') =>
  `<label>${esc(label)} <input name="${name}" value="${esc(value === null ? '' : String(value))}"${extra}></label>`;

function noticeHtml(n: Notice | undefined): string {
  if (!n) return '';
  if (!n.ok) return htmlText(errorLine(n.text));
  const affected = n.affected?.length
    ? `<p>Booked jobs this touches (none was cancelled; move or cancel them if you need to):</p><ul>${n.affected
        .map((j) => `<li>${esc(j.label)}, ${esc(j.customer_name)}, ${esc(j.address)}: ${esc(j.problem)}</li>`)
        .join('')}</ul>`
    : '';
  const secret = n.secret ? `<p>${esc(n.secret.label)}</p><p class="key" id="${n.secret.id}">${esc(n.secret.value)}</p>` : '';
  return `<p class="ok" role="status">${esc(n.text)}</p>${secret}${affected}`;
}

function jobHtml(b: Booking, zone: string, now: Date): string {
  const contact = [
    b.customer_phone ? `<a href="tel:${esc(b.customer_phone.replace(/[^0-9+]/g, ''))}">${esc(b.customer_phone)}</a>` : '',
    b.customer_email ? `<a href="mailto:${esc(b.customer_email)}">${esc(b.customer_email)}</a>` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const size = `${b.bedrooms} bd / ${b.bathrooms} ba${b.add_ons.length ? `, ${b.add_ons.join(', ')}` : ''}${b.pets ? ', pets' : ''}`;
  const by = b.channel === 'pro' ? 'booked by you' : 'booked by a customer';
  return `<div class="job"><strong>${esc(formatLabel(b.starts_at, zone, now))}</strong>: ${esc(CLEAN_TYPE_LABELS[b.clean_type])} for ${esc(b.customer_name)}, ${esc(formatUsd(b.price_cents))}<br>
${esc(b.address)}, ${esc(b.zip)}<br>${contact}<br><span class="note">${esc(size)}; ${by}${b.client_name ? ` through ${esc(b.client_name)}` : ''}${b.notes ? `. Notes: ${esc(b.notes)}` : ''}${b.access_details ? `. Access: ${esc(b.access_details)}` : ''}</span></div>`;
}

function scheduleHtml(d: DashboardData): string {
  const today = localDate(d.now, d.pro.timezone);
  const todays = d.jobs.filter((b) => localDate(b.starts_at, d.pro.timezone) === today);
  const later = d.jobs.filter((b) => localDate(b.starts_at, d.pro.timezone) !== today);
  const list = (jobs: Booking[], none: string) => (jobs.length ? jobs.map((b) => jobHtml(b, d.pro.timezone, d.now)).join('') : `<p>${none}</p>`);
  return `<section><h2>Today</h2>${list(todays, 'No jobs today.')}
<h2>Coming up</h2>${list(later, 'Nothing booked yet.')}</section>`;
}

function notificationsHtml(d: DashboardData): string {
  if (d.notifications.length === 0) return '<section><h2>Notifications</h2><p>Nothing new.</p></section>';
  const items = d.notifications.map((n) => `<li>${esc(n.message)} <span class="note">${esc(formatLabel(n.created_at, d.pro.timezone, d.now))}</span></li>`);
  const ids = d.notifications.map((n) => `<input type="hidden" name="id" value="${esc(n.id)}">`).join('');
  return `<section><h2>Notifications (${d.notifications.length} new)</h2><ul>${items.join('')}</ul>
${postForm('/dashboard/notifications/read', d.csrf, ids, 'Mark these read')}</section>`;
}

function followUpsHtml(d: DashboardData): string {
  const due = d.followUps.follow_ups;
  if (due.length === 0) return '<section><h2>Follow-ups due</h2><p>None due now.</p></section>';
  const items = due.map((f, i) => {
    const who = f.lead.customer_first_name ?? `${f.lead.source}${f.lead.lead_ref ? ` ${f.lead.lead_ref}` : ''}`;
    return `<h3>${esc(who)}: follow-up ${f.follow_up_number}</h3><p class="note">${esc(f.reply_channel)}</p>
<label>Draft <textarea id="draft-${i}" rows="5" readonly>${esc(f.draft)}</textarea></label>
<button type="button" data-copy="draft-${i}" hidden>Copy the draft</button>`;
  });
  return `<section><h2>Follow-ups due (${due.length})</h2>${items.join('')}
<p class="note">After you send one, tell your assistant (update_lead with contacted=true) so the next comes due on time.</p></section>`;
}

/** Spend by platform as bars: plain SVG attributes, so the page needs no script or style. */
function spendChart(p: PipelineReport): string {
  const rows = p.leads.by_source.filter((s) => s.leads > 0);
  if (rows.length === 0) return '';
  const max = Math.max(1, ...rows.map((r) => r.spend));
  const height = rows.length * 28;
  const bars = rows
    .map(
      (r, i) =>
        `<text x="0" y="${i * 28 + 18}" font-size="13" fill="#1d2430">${esc(r.source)}</text><rect x="120" y="${i * 28 + 6}" width="${Math.max(2, Math.round((r.spend / max) * 160))}" height="16" fill="#3a6ea5"></rect><text x="${128 + Math.round((r.spend / max) * 160)}" y="${i * 28 + 18}" font-size="13" fill="#1d2430">$${r.spend}</text>`,
    )
    .join('');
  return `<svg role="img" aria-label="Lead spend by platform this month" viewBox="0 0 340 ${height}" width="100%" height="${height}">${bars}</svg>`;
}

function pipelineHtml(d: DashboardData): string {
  const p = d.pipeline;
  const rows = p.leads.by_source
    .map(
      (s) =>
        `<tr><td>${esc(s.source)}</td><td>${s.leads}</td><td>$${s.spend}</td><td>${s.booked}</td><td>${s.cost_per_booked_job === null ? '–' : `$${s.cost_per_booked_job}`}</td></tr>`,
    )
    .join('');
  return `<section><h2>This month (${esc(p.month)})</h2>
<p>${p.leads.total} leads, $${p.leads.spend} spent, ${p.leads.booked} booked${p.leads.cost_per_booked_job === null ? '' : `: $${p.leads.cost_per_booked_job} per booked job`}. ${p.jobs_booked.total} jobs worth $${p.jobs_booked.value}.</p>
${spendChart(p)}
${rows ? `<table><tr><th scope="col">Platform</th><th scope="col">Leads</th><th scope="col">Spend</th><th scope="col">Booked</th><th scope="col">Per job</th></tr>${rows}</table>` : ''}
<p>Fees due to Front Desk: $${p.customers_brought_by_service.fees_due} (${p.customers_brought_by_service.bookings} customer bookings). Possible lead credits: ${p.possible_lead_credits.count} worth $${p.possible_lead_credits.amount}.</p></section>`;
}

function hoursForm(d: DashboardData): string {
  const hours = presentWeeklyHours(d.pro.weekly_hours);
  const rows = WEEKDAYS.map((day) => field(day[0]!.toUpperCase() + day.slice(1), day, hours[day].join(', '), ' placeholder="closed"')).join('');
  return `<h3>Working hours</h3><p class="note">Windows as 08:00-17:00, several separated by commas; leave a day empty to close it.</p>
${postForm('/dashboard/hours', d.csrf, rows, 'Save hours')}`;
}

function pricesForm(d: DashboardData): string {
  const l = d.pro.price_list;
  const discount = (f: Exclude<(typeof FREQUENCIES)[number], 'once'>) =>
    field(`${f[0]!.toUpperCase()}${f.slice(1)} discount, %`, f, l.frequency_discount_pct[f] ?? 0, ' inputmode="decimal"');
  const money = (label: string, name: string, cents: number) => field(`${label}, USD`, name, toUsd(cents), ' inputmode="decimal"');
  const body = [
    money('Base', 'base', l.base_cents),
    money('Per bedroom', 'per_bedroom', l.per_bedroom_cents),
    money('Per bathroom', 'per_bathroom', l.per_bathroom_cents),
    money('Minimum', 'minimum', l.minimum_cents),
    money('Pets fee', 'pets_fee', l.pets_fee_cents),
    field('Crew size', 'crew_size', l.crew_size, ' inputmode="numeric"'),
    discount('weekly'),
    discount('biweekly'),
    discount('monthly'),
    `<label>First visit of a recurring plan <select name="first_visit"><option value="discounted"${l.first_visit_discounted ? ' selected' : ''}>discounted</option><option value="full_price"${l.first_visit_discounted ? '' : ' selected'}>full price</option></select></label>`,
  ].join('');
  return `<h3>Prices</h3>${postForm('/dashboard/prices', d.csrf, body, 'Save prices')}`;
}

function addOnsForm(d: DashboardData): string {
  const entries = Object.entries(d.pro.price_list.add_ons).sort(([a], [b]) => a.localeCompare(b));
  const row = (i: number, r: { name: string; label: string; price: number | string; minutes: number | string; existing: boolean }) =>
    `<fieldset><legend>${r.existing ? esc(r.label) : 'A new add-on'}</legend>${field('Name (lower case, e.g. inside_fridge)', `addon_name_${i}`, r.name)}${field('Label', `addon_label_${i}`, r.label)}${field('Price, USD', `addon_price_${i}`, r.price, ' inputmode="decimal"')}${field('Minutes', `addon_minutes_${i}`, r.minutes, ' inputmode="numeric"')}${
      r.existing ? `<label><input type="checkbox" name="addon_remove_${i}" value="1"> Stop offering it</label>` : ''
    }</fieldset>`;
  const rows =
    entries.map(([name, a], i) => row(i, { name, label: a.label, price: toUsd(a.price_cents), minutes: a.minutes, existing: true })).join('') +
    row(entries.length, { name: '', label: '', price: '', minutes: '', existing: false });
  return `<h3>Add-ons</h3>${postForm('/dashboard/add-ons', d.csrf, `<input type="hidden" name="rows" value="${entries.length + 1}">${rows}`, 'Save add-ons')}`;
}

function profileForm(d: DashboardData): string {
  const p = d.pro;
  const body = [
    field('Business name', 'name', p.name),
    field('Phone', 'phone', p.phone, ' type="tel"'),
    field('Contact email', 'email', p.email, ' type="email"'),
    field('Website', 'website', p.website, ' type="url"'),
    `<label>Service ZIPs <textarea name="service_zips" rows="2">${esc(p.service_zips.join(', '))}</textarea></label>`,
    field('Travel buffer between jobs, minutes', 'travel_buffer_minutes', p.travel_buffer_minutes, ' inputmode="numeric"'),
    field('Start times every, minutes', 'slot_step_minutes', p.slot_step_minutes, ' inputmode="numeric"'),
    field('Notice needed, hours', 'min_notice_hours', p.min_notice_minutes / 60, ' inputmode="decimal"'),
  ].join('');
  return `<h3>Business and service area</h3>${postForm('/dashboard/profile', d.csrf, body, 'Save')}`;
}

function timeOffHtml(d: DashboardData): string {
  const rows = d.timeOff
    .map((t) => {
      const shown = presentTimeOff(t, d.pro.timezone);
      return `<li>${esc(shown.label)}${shown.note ? ` (${esc(shown.note)})` : ''} ${postForm('/dashboard/time-off/remove', d.csrf, `<input type="hidden" name="time_off_id" value="${esc(t.id)}">`, 'Remove')}</li>`;
    })
    .join('');
  const add = [
    field('First day off', 'start', '', ' type="date" required'),
    field('Last day off', 'end', '', ' type="date" required'),
    field('Note (optional)', 'note', '', ' maxlength="200"'),
  ].join('');
  return `<h3>Time off</h3>${rows ? `<ul>${rows}</ul>` : '<p>No time off ahead.</p>'}${postForm('/dashboard/time-off', d.csrf, add, 'Take these days off')}`;
}

function accessHtml(d: DashboardData, calendarUrl: string): string {
  const feed = d.calendar
    ? `<p>Your calendar subscribes to a secret address ending in …${esc(d.calendar.token_hint)}, made ${esc(formatLabel(d.calendar.created_at, d.pro.timezone, d.now))}.</p>`
    : '<p>Subscribe your own calendar (Google, Apple, Outlook) to your jobs.</p>';
  return `<section><h2>Keys and calendar</h2>
<p>Your assistant uses the business's key. Making a new one stops the old key at once.</p>
${postForm('/dashboard/key', d.csrf, '', 'Make a new key')}
${feed}<p class="note">Calendar address: ${esc(calendarUrl)}/calendar/…; it is shown once when made, and making a new one ends the old.</p>
${postForm('/dashboard/calendar', d.csrf, '', d.calendar ? 'Make a new calendar address' : 'Make my calendar address')}</section>`;
}

export function dashboardHtml(d: DashboardData, publicUrl: string, notice?: Notice): string {
  return `${noticeHtml(notice)}
<p>Signed in as <strong>${esc(d.pro.owner_email ?? '')}</strong>.</p>
${postForm('/dashboard/sign-out', d.csrf, '', 'Sign out')}
${notificationsHtml(d)}
${scheduleHtml(d)}
${followUpsHtml(d)}
${pipelineHtml(d)}
<section><h2>Settings</h2>${hoursForm(d)}${pricesForm(d)}${addOnsForm(d)}${profileForm(d)}${timeOffHtml(d)}</section>
${accessHtml(d, publicUrl)}
<script src="/dashboard/copy.js"></script>`;
}

/** The copy buttons: shown only when this runs, so without script the drafts stay selectable text. */
export const COPY_SCRIPT = `document.querySelectorAll('[data-copy]').forEach(function (b) {
  b.hidden = false;
  b.addEventListener('click', function () {
    var t = document.getElementById(b.getAttribute('data-copy'));
    navigator.clipboard.writeText(t.value).then(function () { b.textContent = 'Copied'; });
  });
});
`;
