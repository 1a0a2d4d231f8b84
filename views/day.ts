import { addDays, localDate } from '../packages/domain/src/time';
import { formatDay } from '../packages/domain/src/time';
import { ON_MY_WAY_ETA_LABEL, onMyWaySentAt, onMyWayWillEmail } from '../packages/domain/src/words/dashboard';
import { ON_MY_WAY_ETA_MINUTES } from '../packages/domain/src/policy';
import { act, call, h, say, show, startView } from './bridge';
import type { Job, OnMyWay, Schedule } from './answers';

/**
 * The day view (schedule): today's and tomorrow's jobs per crew, with the address and access
 * details, and "On my way" on a job of today still ahead whose customer has an email (the
 * operation judges again, as on the Today page).
 */
const app = startView<Schedule>('day', (s) => draw(s));

function draw(s: Schedule): void {
  const zone = s.timezone;
  const today = localDate(new Date(), zone);
  const days = [today, addDays(today, 1)];
  const jobs = s.jobs.filter((j) => j.status === 'booked');
  show(
    h('h1', {}, 'Today and tomorrow'),
    days.map((day) => {
      const those = jobs.filter((j) => j.start.slice(0, 10) === day);
      const crews = [...new Set(those.map((j) => j.crew_name))];
      return h(
        'section',
        { class: 'offer', 'aria-label': `${day === today ? 'Today' : 'Tomorrow'}, ${formatDay(day)}` },
        h('h2', {}, `${day === today ? 'Today' : 'Tomorrow'}, ${formatDay(day)}`),
        those.length === 0 && h('p', {}, 'No jobs.'),
        crews.map((crew) =>
          h(
            'div',
            {},
            h('h3', {}, crew),
            those.filter((j) => j.crew_name === crew).map((j) => jobCard(j, day === today)),
          ),
        ),
      );
    }),
  );
}

function jobCard(j: Job, today: boolean): HTMLElement {
  const ahead = today && new Date(j.end).getTime() > Date.now() && Boolean(j.customer?.email);
  return h(
    'article',
    { class: 'job', 'aria-label': `${j.label}, ${j.customer.name}` },
    h('p', {}, h('strong', {}, j.label), ` · ${j.customer.name}`),
    h('p', {}, `${j.address}, ${j.zip}`),
    j.access_details && h('p', {}, `Access: ${j.access_details}`),
    j.notes && h('p', { class: 'note' }, `Notes: ${j.notes}`),
    ahead && h('button', { type: 'button', onclick: () => confirmOnMyWay(j) }, 'On my way'),
  );
}

function confirmOnMyWay(j: Job): void {
  const send = (e: Event) =>
    act(e.currentTarget as HTMLButtonElement, async () => {
      const eta = (document.getElementById('eta') as HTMLInputElement).value;
      const done = await call<OnMyWay>(app, 'notify_on_my_way', { booking_id: j.booking_id, ...(eta ? { eta_minutes: Number(eta) } : {}) });
      show(h('h1', {}, onMyWaySentAt(done.sent_label)), h('p', {}, `${j.label} · ${j.customer.name}`));
      say(`${onMyWaySentAt(done.sent_label)}.`);
    });
  show(
    h('h1', {}, `${j.label}, ${j.address}`),
    h('p', {}, ...onMyWayWillEmail(h('bdi', {}, j.customer.name))),
    h('label', { for: 'eta' }, ON_MY_WAY_ETA_LABEL),
    h('input', { id: 'eta', type: 'number', inputmode: 'numeric', min: ON_MY_WAY_ETA_MINUTES.min, max: ON_MY_WAY_ETA_MINUTES.max }),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', onclick: send }, 'On my way'),
      h('button', { type: 'button', class: 'quiet', onclick: () => void refresh() }, 'Go back'),
    ),
  );
}

async function refresh(): Promise<void> {
  await act(null, async () => draw(await call<Schedule>(app, 'schedule', {})));
}
