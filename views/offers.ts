import { notOfferingAll } from '../packages/domain/src/words/booking-pages';
import { FIRM_PRICE } from '../packages/domain/src/words/booking-pages';
import { h, show, startView } from './bridge';
import type { Found } from './answers';
import { holdNote, money, timeButtons } from './book-flow';

/** The offers view (find_cleaners): each cleaner with the firm total, its checks as checks, its next times by day. */
const app = startView<Found>('offers', (found) => {
  const cleaners = found.cleaners;
  const without = found.not_offered.map((c) => c.name);
  show(
    h('h1', {}, `Cleaners for ${found.zip}`),
    cleaners.length ? holdNote() : h('p', {}, found.message ?? 'No cleaner serves this ZIP yet.'),
    cleaners.map((c) =>
      h(
        'section',
        { class: 'offer', 'aria-label': c.name },
        h('h2', {}, `${c.name}: ${money(c.total)}`),
        h('p', {}, c.price?.summary, ' ', FIRM_PRICE),
        c.checks.map((k) => h('p', { class: 'note' }, k.summary)),
        c.next_open_times.length
          ? timeButtons(app, { cleaner: c, timezone: c.timezone, zip: found.zip, job: found.job }, c.next_open_times)
          : h('p', {}, 'No open times in the coming week.'),
      ),
    ),
    without.length > 0 && h('p', { class: 'note' }, notOfferingAll(without)),
    h('p', { class: 'note' }, found.checks_note),
  );
});
