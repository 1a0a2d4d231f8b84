/** The interface version: /openapi.json and the MCP server info carry it. */
export const API_VERSION = '1.0.0';

/** How the host names and describes itself in /openapi.json. */
export const PRO_DESK_API = {
  title: 'Front Desk: cleaning-business interface',
  description:
    "The front desk of a cleaning business: prices jobs from the business's own list, lists open times, books and cancels jobs, shows the schedule. Every call needs the business's key: Authorization: Bearer <key>.",
  version: API_VERSION,
};
