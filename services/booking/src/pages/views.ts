import { CLEAN_TYPE_LABELS, FREQUENCY_LABELS, offeredAddOns, offeredCleanTypes } from '@frontdesk/domain';
import { esc } from '@frontdesk/http';
import type { Pro } from '@frontdesk/db';
import { bathroomOptions, bedroomOptions, money, option, type CustomerBooking, type Shown, type Times } from './kit';

/** The markup of the booking and manage pages: built from the operations' answers, every value escaped. */

export function jobForm(pro: Pro, job: Record<string, string>): string {
  const list = pro.price_list;
  const bedrooms = bedroomOptions(job.bedrooms);
  const bathrooms = bathroomOptions(job.bathrooms ?? '1');
  const types = offeredCleanTypes(list)
    .map((t) => option(t, CLEAN_TYPE_LABELS[t], (job.clean_type ?? 'standard') === t))
    .join('');
  const chosen = new Set((job.add_ons ?? '').split(','));
  const addOns = offeredAddOns(list)
    .map(
      (a) =>
        `<label><input type="checkbox" name="add_ons" value="${esc(a)}"${chosen.has(a) ? ' checked' : ''}>${esc(list.add_ons[a]!.label)} (+${money(list.add_ons[a]!.price_cents / 100)})</label><br>`,
    )
    .join('');
  const frequencies = Object.entries(FREQUENCY_LABELS)
    .map(([f, label]) => option(f, label, (job.frequency ?? 'once') === f))
    .join('');
  return `<form method="get" action="/book/${esc(pro.id)}"><h2>Your home</h2>
<label>Bedrooms <select name="bedrooms">${bedrooms}</select></label>
<label>Bathrooms <select name="bathrooms">${bathrooms}</select></label>
<label>Kind of clean <select name="clean_type">${types}</select></label>
${addOns ? `<fieldset><legend>Extras</legend>${addOns}</fieldset>` : ''}
<label><input type="checkbox" name="pets" value="true"${job.pets === 'true' ? ' checked' : ''}>Pets in the home</label><br>
<label>Size in square feet (optional) <input name="sqft" inputmode="numeric" value="${esc(job.sqft ?? '')}"></label>
<label>How often <select name="frequency">${frequencies}</select></label>
<button type="submit">See the price and open times</button></form>`;
}

/** What the times-and-details part of the booking page shows: the job, its price and open times, how many days, and what was typed. */
export interface TimesView {
  pro: Pro;
  job: Record<string, string>;
  times: Times;
  days: number;
  contact: Record<string, string>;
}

export function timesAndContact(v: TimesView): string {
  const { pro, job, times, days, contact } = v;
  const price = times.price;
  const lines = price.line_items.map((l) => `<tr><td>${esc(l.label)}</td><td>${money(l.amount)}</td></tr>`).join('');
  const byDay = new Map<string, Shown[]>();
  for (const t of times.open_times) {
    const day = t.label.split(',').slice(0, 2).join(',');
    byDay.set(day, [...(byDay.get(day) ?? []), t]);
  }
  const groups = [...byDay.entries()]
    .map(
      ([day, list], d) =>
        `<fieldset class="times"><legend>${esc(day)}</legend>${list
          .map(
            (t, i) =>
              `<label><input type="radio" name="start" value="${esc(t.start)}" required${d === 0 && i === 0 ? ' checked' : ''}>${esc(t.label.split(', ').slice(2).join(', '))}</label>`,
          )
          .join(' ')}</fieldset>`,
    )
    .join('');
  const more =
    days < 21
      ? `<p><a href="/book/${esc(pro.id)}?${new URLSearchParams({ ...job, days: String(Math.min(21, days + 7)) }).toString()}">Show more days</a></p>`
      : '';
  const hidden = Object.entries(job)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
  const zips = pro.service_zips.map((z) => option(z, z, contact.zip === z)).join('');
  const field = (label: string, name: string, extra = '') => `<label>${esc(label)} <input name="${name}" value="${esc(contact[name] ?? '')}"${extra}></label>`;
  return `<h2>Your price: ${money(price.total)}</h2><p>${esc(price.summary)}</p>
<table>${lines}<tr><th scope="row">Total</th><td><strong>${money(price.total)}</strong></td></tr></table>
<p class="note">A firm price: everything included, no fees added.</p>
<form method="post" action="/book/${esc(pro.id)}">${hidden}<input type="hidden" name="expected_total" value="${esc(String(price.total))}">
<h2>Pick a time</h2>${groups || '<p>No open times in these days.</p>'}
${more}
<h2>Your details</h2>
${field('Your name', 'customer_name', ' required maxlength="100" autocomplete="name"')}
${field('Phone', 'customer_phone', ' type="tel" maxlength="30" autocomplete="tel"')}
${field('Email', 'customer_email', ' type="email" maxlength="200" autocomplete="email"')}
<p class="note">Give a phone or an email (or both) so the cleaner can reach you.</p>
${field('Street address', 'address', ' required maxlength="300" autocomplete="street-address"')}
<label>ZIP <select name="zip">${zips}</select></label>
<label>Notes for the cleaner (optional) <textarea name="notes" rows="2" maxlength="500">${esc(contact.notes ?? '')}</textarea></label>
<label>How to get in: door code, key, parking (optional) <textarea name="access_details" rows="2" maxlength="500">${esc(contact.access_details ?? '')}</textarea></label>
${times.open_times.length ? '<button type="submit">Book this cleaning</button>' : ''}</form>`;
}

export function bookingSummary(b: CustomerBooking): string {
  const lines = b.line_items.map((l) => `<tr><td>${esc(l.label)}</td><td>${money(l.amount)}</td></tr>`).join('');
  const reach = [b.cleaner.phone, b.cleaner.email]
    .filter((v): v is string => Boolean(v))
    .map(esc)
    .join(' · ');
  return `<p><strong>${esc(b.label)}</strong> with <strong>${esc(b.cleaner.name)}</strong>${reach ? ` (${reach})` : ''}.</p>
<p>${esc(b.address)}, ${esc(b.zip)}</p>
<table>${lines}<tr><th scope="row">Total</th><td><strong>${money(b.total)}</strong></td></tr></table>`;
}
