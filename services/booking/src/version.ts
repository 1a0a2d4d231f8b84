/** The interface version: /openapi.json and the MCP server info carry it. */
export const API_VERSION = '1.0.0';

/** How the host names and describes itself in /openapi.json. */
export const BOOKING_API = {
  title: 'Front Desk: customer booking interface',
  description:
    'Find local house cleaners, see firm prices and open times, book, check and cancel a cleaning. Send Authorization: Bearer with the shared public key, a personal key, or an access token.',
  version: API_VERSION,
};
