import { FIRM_PRICE } from '../packages/domain/src/words/booking-pages';
import { formatTimeOfDay } from '../packages/domain/src/time';
import { h, show, startView, type Answer } from './bridge';
import { holdNote, money, timeButtons } from './book-flow';

/** The times view (available_times): one cleaner's open times by day, each a button that holds it. */
const app = startView('times', (t: Answer, input: Answer) => {
  const starts = ((t.open_times ?? []) as Answer[]).flatMap((d) => (d.starts as string[]).map((start) => ({ start, label: `${d.label}, ${formatTimeOfDay(new Date(start), t.timezone as string)}` })));
  show(
    h('h1', {}, `Open times with ${t.cleaner.name}`),
    h('p', {}, `${money(t.total)} in total. ${FIRM_PRICE}`),
    starts.length ? holdNote() : h('p', {}, 'No open times in these days.'),
    starts.length > 0 && timeButtons(app, { cleaner: t.cleaner, timezone: t.timezone, zip: input.zip, job: input }, starts),
  );
});

