import type { App } from '@modelcontextprotocol/ext-apps';
import { formatUsd, fromUsd } from '../packages/domain/src/money';
import {
  FIRM_PRICE,
  FREE_CANCEL_TEXT,
  GIVE_CONTACT,
  HOLD_ON_PICK,
  MOVE_FREE_TEXT,
  PICK_A_NEW_TIME,
  PRICE_STAYS,
  heldOnPage,
  inCustomerWords,
  moveLate,
} from '../packages/domain/src/words/booking-pages';
import { withinFreeCancel } from '../packages/domain/src/cancellation';
import { formatTimeOfDay } from '../packages/domain/src/time';
import { timesByDay } from '../packages/domain/src/day-groups';
import { act, call, h, say, show, type Args } from './bridge';
import type { Booked, Cancelled, Held, Moved, Status, Times } from './answers';

/**
 * The customer's path in a view, as on the booking pages: pick a time (held through hold_time),
 * give the details still missing, confirm once (cleaner, time, address, price), book with the
 * hold_id; then the booking, its manage link, its .ics, and cancel or move with the 24-hour rule.
 */

export const money = (usd: number) => formatUsd(fromUsd(usd));

/** The job fields a tool answered (or was asked with), as hold_time and book_cleaning take them. */
export function jobArgs(job: Args): Args {
  const keys = ['bedrooms', 'bathrooms', 'clean_type', 'sqft', 'frequency', 'add_ons', 'pets'];
  return Object.fromEntries(keys.filter((k) => job[k] !== undefined && job[k] !== null).map((k) => [k, job[k]]));
}

export interface Offer {
  cleaner: { cleaner_id: string; name: string };
  timezone: string;
  zip?: string;
  job: Args;
}

/** What the details form gives: who, how to reach them, where. */
interface Details {
  name: string;
  email: string;
  phone: string;
  address: string;
  zip: string;
}

/** A booking as the booking view shows it: book_cleaning's or booking_status's answer. */
export type Shown = (Booked | Status) & { manage_token?: string };

/** Open times as buttons, one group a day (the pages' grouping: timesByDay); a tap holds the time. */
export function timeButtons(app: App, offer: Offer, times: { start: string; label: string }[]): HTMLElement {
  return dayButtons(
    times,
    (d) => `${d} with ${offer.cleaner.name}`,
    (t) => `Hold ${t.label} with ${offer.cleaner.name}`,
    (t) => hold(app, offer, t.start),
  );
}

/** Times as buttons grouped by day, each named for what a tap does, running `pick` (its button waits). */
function dayButtons(
  times: { start: string; label: string }[],
  group: (day: string) => string,
  name: (t: { label: string }) => string,
  pick: (t: { start: string; label: string }) => Promise<void> | void,
): HTMLElement {
  return h(
    'div',
    { class: 'days' },
    timesByDay(times).map((d) =>
      h(
        'div',
        { class: 'times', role: 'group', 'aria-label': group(d.day) },
        h('h3', {}, d.day),
        d.times.map((t) =>
          h(
            'button',
            { type: 'button', 'aria-label': name(t), onclick: (e: Event) => act(e.currentTarget as HTMLButtonElement, () => Promise.resolve(pick(t))) },
            t.time,
          ),
        ),
      ),
    ),
  );
}

export const holdNote = () => h('p', { class: 'note' }, HOLD_ON_PICK);

async function hold(app: App, offer: Offer, start: string): Promise<void> {
  const held = await call<Held>(app, 'hold_time', { cleaner_id: offer.cleaner.cleaner_id, start, ...jobArgs(offer.job) });
  details(app, offer, held);
}

function field(id: string, label: string, attrs: Record<string, unknown>): HTMLElement[] {
  return [h('label', { for: id }, label), h('input', { id, name: id, ...attrs })];
}

/** The held time and the details still needed (what was typed is kept if the person goes back). */
function details(app: App, offer: Offer, held: Held, kept: Partial<Details> = {}): void {
  const until = formatTimeOfDay(new Date(held.expires_at), offer.timezone);
  const form = h(
    'form',
    {
      onsubmit: (e: Event) => {
        e.preventDefault();
        const data = Object.fromEntries(new FormData(e.target as HTMLFormElement)) as unknown as Details;
        if (!data.email && !data.phone) return say(GIVE_CONTACT, true);
        say('');
        confirm(app, offer, held, data);
      },
    },
    field('name', 'Your name', { required: true, autocomplete: 'name', value: kept.name ?? '' }),
    field('email', 'Email', { type: 'email', autocomplete: 'email', value: kept.email ?? '' }),
    field('phone', 'Phone', { type: 'tel', autocomplete: 'tel', value: kept.phone ?? '' }),
    field('address', 'Street address', { required: true, autocomplete: 'street-address', value: kept.address ?? '' }),
    field('zip', 'ZIP code', {
      required: true,
      inputmode: 'numeric',
      pattern: '[0-9]{5}',
      maxlength: 5,
      autocomplete: 'postal-code',
      value: kept.zip ?? offer.zip ?? '',
    }),
    h('button', { type: 'submit' }, 'Review the booking'),
  );
  show(h('h1', {}, `${held.label} with ${offer.cleaner.name}`), h('p', { class: 'held' }, heldOnPage(held.label, until)), form);
}

/** The one confirmation: cleaner, time, address, price. */
function confirm(app: App, offer: Offer, held: Held, data: Details): void {
  const book = (e: Event) =>
    act(e.currentTarget as HTMLButtonElement, async () => {
      const booked = await call<Booked>(app, 'book_cleaning', {
        cleaner_id: offer.cleaner.cleaner_id,
        start: held.start,
        ...jobArgs(offer.job),
        hold_id: held.hold_id,
        customer_name: data.name,
        ...(data.email ? { customer_email: data.email } : {}),
        ...(data.phone ? { customer_phone: data.phone } : {}),
        address: data.address,
        zip: data.zip,
        expected_total: held.total,
        idempotency_key: crypto.randomUUID(),
      });
      showBooking(app, booked);
    });
  show(
    h('h1', {}, 'Book this cleaning?'),
    h(
      'dl',
      {},
      h('dt', {}, 'Cleaner'),
      h('dd', {}, offer.cleaner.name),
      h('dt', {}, 'Time'),
      h('dd', {}, held.label),
      h('dt', {}, 'Address'),
      h('dd', {}, `${data.address}, ${data.zip}`),
      h('dt', {}, 'Price'),
      h('dd', {}, `${money(held.total)} in total. ${FIRM_PRICE}`),
    ),
    h('p', { class: 'note' }, FREE_CANCEL_TEXT),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', onclick: book }, 'Book it'),
      h('button', { type: 'button', class: 'quiet', onclick: () => details(app, offer, held, data) }, 'Go back'),
    ),
  );
}

/** The manage token a booking's link carries (book_cleaning answers it too; booking_status only the link). */
const tokenOf = (b: Shown): string => b.manage_token ?? b.manage_url.split('/').pop() ?? '';

/** What was booked, the manage link, the .ics, and cancel and move, each behind a confirmation stating the 24-hour rule. */
export function showBooking(app: App, b: Shown): void {
  const cancelled = b.status === 'cancelled';
  const manage = b.manage_url;
  show(
    h('h1', {}, cancelled ? `Cancelled: ${b.label} with ${b.cleaner.name}` : `Booked: ${b.label} with ${b.cleaner.name}`),
    h('p', {}, [b.address, b.zip].filter(Boolean).join(', ')),
    h('p', {}, `${money(b.total)} in total. ${FIRM_PRICE}`),
    !cancelled &&
      manage &&
      h(
        'p',
        {},
        h('a', { href: manage, onclick: (e: Event) => (e.preventDefault(), void app.openLink({ url: manage })) }, 'See, move or cancel your booking'),
        ' · ',
        h(
          'button',
          {
            type: 'button',
            class: 'link',
            onclick: () =>
              void app.downloadFile({ contents: [{ type: 'resource_link', uri: `${manage}/booking.ics`, name: 'cleaning.ics', mimeType: 'text/calendar' }] }),
          },
          'Add it to your calendar (.ics)',
        ),
      ),
    !cancelled &&
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'button', class: 'quiet', onclick: (e: Event) => act(e.currentTarget as HTMLButtonElement, () => pickMove(app, b)) },
          'Move this cleaning',
        ),
        h('button', { type: 'button', class: 'quiet', onclick: () => askCancel(app, b) }, 'Cancel this cleaning'),
      ),
  );
}

function askCancel(app: App, b: Shown): void {
  const yes = (e: Event) =>
    act(e.currentTarget as HTMLButtonElement, async () => {
      const done = await call<Cancelled>(app, 'cancel_booking', { manage_token: tokenOf(b) });
      showBooking(app, { ...b, status: done.status });
    });
  show(
    h('h1', {}, `Cancel ${b.label} with ${b.cleaner.name}?`),
    h('p', {}, FREE_CANCEL_TEXT),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', onclick: yes }, 'Yes, cancel it'),
      h('button', { type: 'button', class: 'quiet', onclick: () => showBooking(app, b) }, 'Keep it'),
    ),
  );
}

/** The cleaner's open times for the same job (available_times), each a button to move the booking there. */
async function pickMove(app: App, b: Shown): Promise<void> {
  const t = await call<Times>(app, 'available_times', { cleaner_id: b.cleaner.cleaner_id, ...jobArgs(b.job) });
  const starts = t.open_times
    .flatMap((d) => d.starts.map((start) => ({ start, label: `${d.label}, ${formatTimeOfDay(new Date(start), t.timezone)}` })))
    .filter((s) => s.start !== b.start);
  show(
    h('h1', {}, `Move ${b.label} with ${b.cleaner.name}`),
    h('p', {}, PRICE_STAYS),
    h('h2', {}, PICK_A_NEW_TIME),
    starts.length
      ? dayButtons(
          starts,
          (d) => `New times on ${d}`,
          (s) => `Move to ${s.label}`,
          (s) => askMove(app, b, s),
        )
      : h('p', {}, 'No open times in these days.'),
    h('button', { type: 'button', class: 'quiet', onclick: () => showBooking(app, b) }, 'Keep it as it is'),
  );
}

/** The one confirmation of a move: from, to, the same price, and the 24-hour rule (and whether it applies now). */
function askMove(app: App, b: Shown, to: { start: string; label: string }): void {
  const late = !withinFreeCancel(new Date(b.start), new Date());
  const yes = (e: Event) =>
    act(e.currentTarget as HTMLButtonElement, async () => {
      const moved = await call<Moved>(app, 'reschedule_booking', {
        manage_token: tokenOf(b),
        start: to.start,
        ...(b.series_id ? { visit_id: b.booking_id } : {}),
      });
      showBooking(app, { ...b, ...moved, manage_url: b.manage_url, manage_token: tokenOf(b) });
      say(inCustomerWords(moved.message));
    });
  show(
    h('h1', {}, `Move to ${to.label}?`),
    h('dl', {}, h('dt', {}, 'Now'), h('dd', {}, `${b.label} with ${b.cleaner.name}`), h('dt', {}, 'New time'), h('dd', {}, to.label)),
    h('p', {}, PRICE_STAYS),
    h('p', { class: late ? 'error' : 'note' }, late ? moveLate(b.cleaner.name) : MOVE_FREE_TEXT),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', onclick: yes }, 'Yes, move it'),
      h('button', { type: 'button', class: 'quiet', onclick: () => void act(null, () => pickMove(app, b)) }, 'Pick another time'),
      h('button', { type: 'button', class: 'quiet', onclick: () => showBooking(app, b) }, 'Keep it as it is'),
    ),
  );
}
