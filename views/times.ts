import { FIRM_PRICE } from '../packages/domain/src/words/booking-pages';
import { formatTimeOfDay } from '../packages/domain/src/time';
import { h, show, startView } from './bridge';
import type { Times } from './answers';
import { holdNote, money, timeButtons } from './book-flow';

/** The times view (available_times): one cleaner's open times by day, each a button that holds it. */
const app = startView<Times>('times', (t, input) => {
  const starts = t.open_times.flatMap((d) => d.starts.map((start) => ({ start, label: `${d.label}, ${formatTimeOfDay(new Date(start), t.timezone)}` })));
  show(
    h('h1', {}, `Open times with ${t.cleaner.name}`),
    h('p', {}, `${money(t.total)} in total. ${FIRM_PRICE}`),
    starts.length ? holdNote() : h('p', {}, 'No open times in these days.'),
    starts.length > 0 &&
      timeButtons(app, { cleaner: t.cleaner, timezone: t.timezone, zip: typeof input.zip === 'string' ? input.zip : undefined, job: input }, starts),
  );
});
