/** The interface version: both hosts' /openapi.json and MCP server info carry it. */
export const API_VERSION = '1.0.0';

/**
 * The interface's terms, published in /openapi.json and on /docs: it is offered to the
 * assistants and programs that call it for a business or a customer; no open licence is granted.
 */
export const API_LICENSE = { name: 'Proprietary: all rights reserved. Use this interface to act for a business or a customer that asked you to.' };
