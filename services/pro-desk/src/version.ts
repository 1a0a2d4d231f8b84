/** The interface version: /openapi.json and the MCP server info carry it. */
export const API_VERSION = '1.0.0';

/** How the host names and describes itself in /openapi.json. */
export const PRO_DESK_API = {
  title: 'Front Desk: cleaning-business interface',
  description:
    "The front desk of a cleaning business: prices jobs from the business's own list, lists open times, books and cancels jobs, shows the schedule. Every call needs the business's key: Authorization: Bearer <key>.",
  version: API_VERSION,
};

/**
 * The interface's terms, published in /openapi.json and on /docs: it is offered to the
 * assistants and programs that call it for a business or a customer; no open licence is granted.
 */
export const API_LICENSE = { name: 'Proprietary: all rights reserved. Use this interface to act for a business or a customer that asked you to.' };

/** The host's areas in /openapi.json, one per operations file, so a reader finds related calls together. */
export const PRO_DESK_TAGS = [
  { name: 'business', description: 'The business profile, its prices and the upcoming schedule.', operations: ['my_business', 'schedule'] },
  { name: 'pricing', description: 'Quotes and open start times from the business’s own price list and hours.', operations: ['quote_job', 'open_times'] },
  {
    name: 'bookings',
    description: 'Jobs on the business’s own schedule: book, move, cancel, report a no-show.',
    operations: ['book_job', 'reschedule_job', 'cancel_job', 'report_no_show'],
  },
  {
    name: 'leads',
    description: 'Leads from platforms and direct sources, their follow-ups and lead credits.',
    operations: ['log_lead', 'follow_ups_due', 'update_lead', 'flag_bad_lead'],
  },
  { name: 'reports', description: 'What changed since the last check, and the monthly pipeline.', operations: ['updates', 'pipeline'] },
  {
    name: 'settings',
    description: 'Prices, hours, notice and time off, in the shapes my_business shows.',
    operations: ['update_business', 'add_time_off', 'remove_time_off'],
  },
  {
    name: 'crews',
    description: 'The crews that share the work, and which crew takes a job.',
    operations: ['add_crew', 'update_crew', 'remove_crew', 'assign_job'],
  },
  {
    name: 'webhooks',
    description: 'Where the business’s events are sent as they happen, signed, in order, until received.',
    operations: ['list_webhooks', 'add_webhook', 'update_webhook', 'remove_webhook', 'rotate_webhook_secret', 'test_webhook'],
  },
] as const;
