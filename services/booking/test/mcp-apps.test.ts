// MCP Apps on the book host: the views as resources in both eras, the extension declared, the
// tools that link them, and tool answers that do not depend on whether a client speaks it.
import { createBusiness } from '@frontdesk/use-cases';
import { MODES, mcpClient2 } from '@frontdesk/dev-env/mcp-client';
import { bookHostOnPort, type BookHost } from '@frontdesk/dev-env/oauth';
import { MCP_APPS_EXTENSION, MCP_APP_MIME_TYPE, VIEW_MAX_BYTES } from '@frontdesk/http';

let host: BookHost;
let cleanerId = '';
const USER = { Authorization: 'Bearer fdpub_test_public_key', 'X-User-Name': 'Dana Park', 'X-User-Email': 'dana@example.com' };
beforeAll(async () => {
  host = await bookHostOnPort();
  cleanerId = (await createBusiness(host.t.db, { name: 'Sunny Maids', timezone: 'America/New_York', service_zips: ['10001'] })).pro.id;
});
afterAll(() => host.close());

type Json = Record<string, any>;
const VIEWS = ['ui://booking/booking.html', 'ui://booking/offers.html', 'ui://booking/times.html'];
const LINKS = {
  find_cleaners: 'ui://booking/offers.html',
  available_times: 'ui://booking/times.html',
  book_cleaning: 'ui://booking/booking.html',
  booking_status: 'ui://booking/booking.html',
};

/** One raw JSON-RPC message to /mcp, as a 2025 client sends it (no _meta) or a 2026-07-28 one (with its envelope). */
async function rpc(method: string, params: Json, modern?: { capabilities: Json }): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { ...USER, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  let sent = params;
  if (modern) {
    Object.assign(headers, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(params.name ? { 'mcp-name': params.name } : {}) });
    sent = {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': modern.capabilities,
        'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
      },
    };
  } else headers['mcp-protocol-version'] = '2025-11-25';
  const res = await fetch(`${host.url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: sent }) });
  return { status: res.status, text: await res.text() };
}

describe.each(MODES)('the 2.x client %s', (_mode, mode) => {
  it('lists the views as resources, reads each as one self-contained document with its CSP, and sees which tool links which', async () => {
    const client = await mcpClient2(host.url, USER, mode);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(VIEWS);
    for (const r of resources) {
      expect(r).toMatchObject({ mimeType: MCP_APP_MIME_TYPE, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] } } } });
      const doc = (await client.readResource({ uri: r.uri })).contents[0] as Json;
      expect(doc).toMatchObject({ uri: r.uri, mimeType: MCP_APP_MIME_TYPE, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] } } } });
      // One document: its script inline and allowed by hash, nothing fetched from anywhere.
      expect(doc.text).toMatch(/^<!doctype html>/);
      // Within the size the build holds views to (the official App is most of it: docs/mcp-apps.md).
      expect(Buffer.byteLength(doc.text)).toBeLessThanOrEqual(VIEW_MAX_BYTES);
      expect(doc.text).toMatch(
        /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+';[^"]*connect-src 'none'/,
      );
      expect(doc.text).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.w3\.org)[a-z0-9.-]+\.[a-z]{2,}\/[^\s"'`]*\.(js|css)/i);
    }
    const { tools } = await client.listTools();
    const linked = Object.fromEntries(tools.filter((t) => t._meta).map((t) => [t.name, (t._meta as Json).ui.resourceUri]));
    expect(linked).toEqual(LINKS);
    await client.close();
  });
});

describe('the extension, declared', () => {
  it('in the 2025 handshake and in server/discover, with resources', async () => {
    const init = JSON.parse((await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } })).text);
    expect(init.result.capabilities).toEqual({
      tools: { listChanged: false },
      resources: {},
      extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } },
    });
    const discover = JSON.parse((await rpc('server/discover', {}, { capabilities: {} })).text);
    expect(discover.result.capabilities).toEqual({ tools: {}, resources: {}, extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } });
  });

  it('an unknown view is "resource not found"', async () => {
    const answer = JSON.parse((await rpc('resources/read', { uri: 'ui://booking/nope.html' })).text);
    expect(answer.error).toMatchObject({ code: -32002, message: expect.stringContaining('ui://booking/nope.html') });
  });
});

describe('tool answers', () => {
  it('are byte for byte the same whether or not the client speaks the extension, in both eras', async () => {
    const args = { name: 'find_cleaners', arguments: { zip: '10001', bedrooms: 2, bathrooms: 1 } };
    const legacy = await rpc('tools/call', args);
    const plain = await rpc('tools/call', args, { capabilities: {} });
    const apps = await rpc('tools/call', args, { capabilities: { extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } } });
    expect(plain.status).toBe(200);
    expect(apps.text).toBe(plain.text);
    const result = JSON.parse(legacy.text).result;
    // The answer is the text and structuredContent it always was, and names no view.
    expect(Object.keys(result)).toEqual(['content', 'structuredContent']);
    expect(result.structuredContent.cleaners.map((c: Json) => c.cleaner_id)).toEqual([cleanerId]);
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  });
});
