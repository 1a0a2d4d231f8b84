import path from 'node:path';
import { builtView, type AppView } from '@frontdesk/http';

/**
 * The book host's MCP Apps views (views/*.ts, built by scripts/build-views.ts into
 * services/booking/dist/views): which tool's answer each shows. From src/ and from dist/ the
 * built folder is the same one.
 */
const built = (name: string) => builtView(path.join(__dirname, '..', 'dist', 'views', `${name}.html`));

export const BOOKING_VIEWS: readonly AppView[] = [
  {
    uri: 'ui://booking/offers.html',
    name: 'offers',
    title: 'Cleaners and open times',
    description: 'Each cleaner with the firm total, its checks and its next open times; picking a time holds it, then one confirmation books it.',
    tools: ['find_cleaners'],
    html: built('offers'),
  },
  {
    uri: 'ui://booking/times.html',
    name: 'times',
    title: 'Open times',
    description: "One cleaner's open times by day; picking a time holds it, then one confirmation books it.",
    tools: ['available_times'],
    html: built('times'),
  },
  {
    uri: 'ui://booking/booking.html',
    name: 'booking',
    title: 'Your cleaning',
    description: 'What was booked, the link to manage it, an .ics for the calendar, and cancel with the 24-hour rule stated.',
    tools: ['book_cleaning', 'booking_status'],
    html: built('booking'),
  },
];
