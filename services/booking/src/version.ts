/** The interface version: /openapi.json and the MCP server info carry it. */
export const API_VERSION = '1.0.0';

/** How the host names and describes itself in /openapi.json. */
export const BOOKING_API = {
  title: 'Front Desk: customer booking interface',
  description:
    'Find local house cleaners, see firm prices and open times, book, check and cancel a cleaning. Send Authorization: Bearer with the shared public key, a personal key, or an access token.',
  version: API_VERSION,
};

/**
 * The interface's terms, published in /openapi.json and on /docs: it is offered to the
 * assistants and programs that call it for a business or a customer; no open licence is granted.
 */
export const API_LICENSE = { name: 'Proprietary: all rights reserved. Use this interface to act for a business or a customer that asked you to.' };

/** The host's areas in /openapi.json, one per operations file. */
export const BOOKING_TAGS = [
  { name: 'cleaners', description: 'Cleaners serving a ZIP code, their firm prices and open start times.' },
  {
    name: 'bookings',
    description: 'Book a cleaning, and check, move or cancel it later with its manage token.',
  },
] as const;
