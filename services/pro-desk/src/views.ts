import path from 'node:path';
import { builtView, type AppView } from '@frontdesk/http';

/**
 * The pro host's MCP Apps views (views/day.ts and views/lead.ts, built by scripts/build-views.ts
 * into services/pro-desk/dist/views). Linking adds only `_meta` to tools/list, never model-facing.
 */
const built = (name: string) => builtView(path.join(__dirname, '..', 'dist', 'views', `${name}.html`));

export const PRO_DESK_VIEWS: readonly AppView[] = [
  {
    uri: 'ui://pro-desk/day.html',
    name: 'day',
    title: 'Today and tomorrow',
    description: "Today's and tomorrow's jobs per crew, with addresses and access details, and On my way for a job of today.",
    tools: ['schedule'],
    html: built('day'),
  },
  {
    uri: 'ui://pro-desk/lead.html',
    name: 'lead',
    title: 'A new lead',
    description: 'The quote, the open times and the reply draft to copy; for a platform lead no link, phone or email.',
    tools: ['log_lead'],
    html: built('lead'),
  },
];
