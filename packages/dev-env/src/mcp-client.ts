import type { AnyOperation } from '@frontdesk/http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as Client2, StreamableHTTPClientTransport as Transport2, type VersionNegotiationMode } from '@modelcontextprotocol/client';
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

/**
 * The official 2.x client (`@modelcontextprotocol/client`), in one of its negotiation modes:
 * `{ pin: '2026-07-28' }` (that revision or fail), `'auto'` (probe with server/discover,
 * fall back to initialize) or `'legacy'` (the 2025 handshake only).
 */
export async function mcpClient2(baseUrl: string, headers: Record<string, string>, mode: VersionNegotiationMode): Promise<Client2> {
  const client = new Client2({ name: 'front-desk-tests', version: '2.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new Transport2(new URL(`${baseUrl}/mcp`), { requestInit: { headers } }));
  return client;
}

export const MODES: [string, VersionNegotiationMode, { era: string; version: string }][] = [
  ['pinned to 2026-07-28', { pin: '2026-07-28' }, { era: 'modern', version: '2026-07-28' }],
  ['in auto mode', 'auto', { era: 'modern', version: '2026-07-28' }],
  ['in legacy mode', 'legacy', { era: 'legacy', version: '2025-11-25' }],
];

/** Ids and keys differ between twin records; everything else must match. */
export function masked(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/\b(pro|bk|lead|ntf|chk|key|crew|cl)_[0-9a-z]{14}\b/g, '$1_<id>')
      .replace(/Cleaner [0-9a-f]{6}|Twin [AB]/g, '<name>'),
  );
}

/** A tool's hints as [readOnly, destructive, idempotent, openWorld]. */
export type Hints = [boolean, boolean, boolean, boolean];
export const READ_HINTS: Hints = [true, false, true, false];

/**
 * Every tool carries all five annotations (title and the four hints, each a boolean, none
 * left to a client's default), and each hint is the one the table gives for it.
 */
export function expectAnnotated(
  tools: { name: string; title?: string; annotations?: Record<string, unknown> }[],
  operations: readonly Pick<AnyOperation, 'name' | 'title' | 'readOnly' | 'destructive' | 'idempotent' | 'openWorld'>[],
): void {
  const keys = ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];
  for (const tool of tools) {
    const a = tool.annotations ?? {};
    expect([tool.name, Object.keys(a).sort()]).toEqual([tool.name, [...keys].sort()]);
    expect([tool.name, typeof a.title === 'string' && a.title.length > 0 && a.title === tool.title]).toEqual([tool.name, true]);
    for (const k of keys.slice(1)) expect([tool.name, k, typeof a[k]]).toEqual([tool.name, k, 'boolean']);
  }
  const given = Object.fromEntries(
    tools.map((t) => [
      t.name,
      [t.annotations!.title, t.annotations!.readOnlyHint, t.annotations!.destructiveHint, t.annotations!.idempotentHint, t.annotations!.openWorldHint],
    ]),
  );
  // What each definition declares, read as MCP reads an unset hint: a write is destructive
  // unless it says it only adds, a read is idempotent, nothing reaches outside unless it says so.
  const declared = Object.fromEntries(
    operations.map((op) => [
      op.name,
      [op.title, op.readOnly, op.readOnly ? false : (op.destructive ?? true), op.readOnly || (op.idempotent ?? false), op.openWorld ?? false],
    ]),
  );
  expect(given).toEqual(declared);
}
