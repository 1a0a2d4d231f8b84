import { formatUsd, fromUsd } from '../packages/domain/src/money';
import { timesByDay } from '../packages/domain/src/day-groups';
import { h, say, show, startView } from './bridge';
import type { LoggedLead } from './answers';

/**
 * The lead view (log_lead): the quote, the open times, and the reply draft to copy. A platform
 * lead's view shows no link, no phone and no email (rule 6): only the marketplace's reply channel.
 */
startView<LoggedLead>('lead', (a) => {
  const lead = a.lead;
  const platform = Boolean(lead.platform);
  const contact = !platform && lead.contact ? lead.contact : undefined;
  show(
    h('h1', {}, `Lead ${lead.lead_ref ?? ''} in ${lead.zip}`.replace('  ', ' ')),
    h('p', {}, a.quote?.summary ?? `Quote: ${formatUsd(fromUsd(lead.quote_total ?? 0))}`),
    contact && h('p', {}, `Contact: ${contact}`),
    h('h2', {}, 'Open times'),
    timesByDay(a.open_times ?? []).map((d) => h('p', {}, h('strong', {}, d.day), `: ${d.times.map((t) => t.time).join(', ')}`)),
    h('h2', {}, 'Your reply'),
    h('p', { class: 'note' }, a.reply_channel),
    h('label', { for: 'draft' }, 'Reply draft'),
    h('textarea', { id: 'draft', rows: 8, readonly: true }, a.draft),
    h(
      'button',
      {
        type: 'button',
        onclick: () => {
          const area = document.getElementById('draft') as HTMLTextAreaElement;
          area.select();
          void navigator.clipboard?.writeText(area.value).then(
            () => say('The reply is copied.'),
            () => say('The reply is selected: copy it with your keyboard.'),
          );
        },
      },
      'Copy the reply',
    ),
  );
});
