import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Express } from 'express';
import type { AddressInfo } from 'node:net';
import { closeServer, listen } from '@frontdesk/http';

/** The app on a real port, and the official MCP SDK client connected to its /mcp. */
export async function listenOn(app: Express): Promise<{ url: string; close(): Promise<void> }> {
  const server = await listen(app, 0, '127.0.0.1');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => closeServer(server) };
}

export async function mcpClient(baseUrl: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'front-desk-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers } }));
  return client;
}

/** Ids and keys differ between twin records; everything else must match. */
export function masked(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/\b(pro|bk|lead|ntf|chk|key|crew)_[0-9a-z]{14}\b/g, '$1_<id>')
      .replace(/Cleaner [0-9a-f]{6}|Twin [AB]/g, '<name>'),
  );
}
