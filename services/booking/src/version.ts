/** The interface version: /openapi.json and the MCP server info carry it. */
export const API_VERSION = '1.0.0';
