/** The host's areas in /openapi.json, one per operations file, so a reader finds related calls together; each operation names its own. */
export const PRO_DESK_TAGS = [
  { name: 'business', description: 'The business profile, its prices and the upcoming schedule.' },
  { name: 'pricing', description: 'Quotes and open start times from the business’s own price list and hours.' },
  {
    name: 'bookings',
    description: 'Jobs on the business’s own schedule: book, move, cancel, report a no-show.',
  },
  {
    name: 'leads',
    description: 'Leads from platforms and direct sources, their follow-ups and lead credits.',
  },
  { name: 'clients', description: 'The people the business works for: the client list, a client’s history, the owner’s notes.' },
  { name: 'reports', description: 'What changed since the last check, and the monthly pipeline.' },
  {
    name: 'settings',
    description: 'Prices, hours, notice and time off, in the shapes my_business shows.',
  },
  {
    name: 'crews',
    description: 'The crews that share the work, and which crew takes a job.',
  },
  {
    name: 'properties',
    description: 'Hosts’ rentals whose calendars become turnover cleans, kept right as stays change.',
  },
  {
    name: 'webhooks',
    description: 'Where the business’s events are sent as they happen, signed, in order, until received.',
  },
] as const;
