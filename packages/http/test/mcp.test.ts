import { randomUUID } from 'node:crypto';
import { idempotencyStore, rateLimitStore } from '@frontdesk/db';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { hostLimits, LATEST_MCP_PROTOCOL_VERSION, MCP_PROTOCOL_VERSIONS, defaultRateLimits } from '../src';
import { as, startKit, type Kit } from '@frontdesk/dev-env/http-kit';

// createMcpRouter over a real HTTP server, with the tiny registry of ./kit.
let t: TestDatabase;
let kit: Kit;
beforeAll(async () => {
  t = await createTestDatabase();
  const limits = { ...defaultRateLimits(), readsPerCredential: { limit: 3, windowSeconds: 60 } };
  kit = await startKit({
    rateLimit: { host: hostLimits(rateLimitStore(t.db), () => new Date(), limits), subjectOf: (c) => c.id },
    idempotency: { store: idempotencyStore(t.db), scopeOf: (c) => ({ credential: c.id }) },
  });
});
afterAll(async () => {
  await kit.close();
  await t.drop();
});

type Json = Record<string, any>;
async function post(body: string, headers: Record<string, string> = as(`c_${randomUUID()}`)) {
  const res = await fetch(`${kit.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as Json };
}
const rpc = (method: string, params?: Json, headers?: Record<string, string>) => post(JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }), headers);
const tool = (name: string, args: Json, headers?: Record<string, string>) => rpc('tools/call', { name, arguments: args }, headers);

describe('the JSON-RPC envelope', () => {
  it('answers bad JSON with a parse error, and what is not a request with Invalid Request', async () => {
    expect(await post('{"jsonrpc":')).toMatchObject({ status: 400, body: { id: null, error: { code: -32700 } } });
    for (const body of ['null', '42', '{"jsonrpc":"1.0","id":1,"method":"ping"}', '{"jsonrpc":"2.0","id":{},"method":"ping"}', '{"jsonrpc":"2.0","id":1}']) {
      expect({ body, answer: await post(body) }).toMatchObject({ body, answer: { status: 400, body: { jsonrpc: '2.0', error: { code: -32600 } } } });
    }
  });

  it('answers a batch under 2025-03-26 (or no version header), as that revision requires, and refuses one under a later revision', async () => {
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'echo_query', arguments: { count: 2 } } },
      { jsonrpc: '2.0', id: 3, method: 'resources/list' },
      { hello: 'world' },
    ]);
    for (const version of [{ 'MCP-Protocol-Version': '2025-03-26' }, {}] as Record<string, string>[]) {
      const res = await post(batch, { ...as(`c_${randomUUID()}`), ...version });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { jsonrpc: '2.0', id: 1, result: {} },
        { jsonrpc: '2.0', id: 'b', result: expect.objectContaining({ structuredContent: { input: { count: 2 } } }) },
        { jsonrpc: '2.0', id: 3, error: { code: -32601, message: expect.any(String) } },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } },
      ]);
    }
    const quiet = await post('[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":4,"result":{}}]', {
      ...as('c'),
      'MCP-Protocol-Version': '2025-03-26',
    });
    expect(quiet).toMatchObject({ status: 202, body: undefined });
    for (const version of ['2025-06-18', '2025-11-25', '2026-07-28']) {
      const res = await post('[{"jsonrpc":"2.0","id":1,"method":"ping"}]', { ...as('c'), 'MCP-Protocol-Version': version });
      expect(res).toMatchObject({
        status: 400,
        body: { id: null, error: { code: -32600, message: expect.stringMatching(/batches are accepted under protocol revision 2025-03-26 only/) } },
      });
    }
    expect(await post('[]', { ...as('c'), 'MCP-Protocol-Version': '2025-03-26' })).toMatchObject({ status: 400, body: { error: { code: -32600 } } });
  });

  it('takes a notification or a client’s response with 202 and no body', async () => {
    expect(await post('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toMatchObject({ status: 202, body: undefined });
    expect(await post('{"jsonrpc":"2.0","id":3,"result":{}}')).toMatchObject({ status: 202, body: undefined });
  });

  it('answers an unknown method with -32601 and ping with an empty result', async () => {
    expect((await rpc('resources/list')).body).toMatchObject({ id: 7, error: { code: -32601 } });
    expect((await rpc('ping')).body).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  });

  it('negotiates the protocol version at initialize: one it speaks as asked, else the latest', async () => {
    for (const version of MCP_PROTOCOL_VERSIONS) expect((await rpc('initialize', { protocolVersion: version })).body.result.protocolVersion).toBe(version);
    const old = await rpc('initialize', { protocolVersion: '2024-11-05' });
    expect(old.body.result).toMatchObject({ protocolVersion: LATEST_MCP_PROTOCOL_VERSION, serverInfo: { name: 'kit' }, instructions: 'Test only.' });
  });

  it('refuses a protocol version header it does not speak, GET, and an origin it does not know', async () => {
    expect(await rpc('ping', undefined, { ...as('c'), 'MCP-Protocol-Version': '1999-01-01' })).toMatchObject({
      status: 400,
      body: { error: { code: -32600 } },
    });
    expect((await fetch(`${kit.url}/mcp`)).status).toBe(405);
    expect((await rpc('ping', undefined, { ...as('c'), Origin: 'https://evil.example' })).status).toBe(403);
    const allowed = await rpc('ping', undefined, { ...as('c'), Origin: 'https://claude.ai' });
    expect([allowed.status, allowed.headers.get('access-control-allow-origin')]).toEqual([200, 'https://claude.ai']);
  });

  it('answers a caller without credentials with a 401 before anything else', async () => {
    expect(await rpc('tools/list', undefined, {})).toMatchObject({ status: 401, body: { error: { code: -32600 } } });
  });
});

describe('tools', () => {
  it('lists every operation with only type, properties, required and additionalProperties at the top of its input schema', async () => {
    const { tools } = (await rpc('tools/list')).body.result as { tools: Json[] };
    expect(tools.map((t) => t.name)).toEqual(['echo_query', 'echo_body', 'fail_write', 'say_count']);
    for (const t of tools) {
      expect([t.name, Object.keys(t.inputSchema).filter((k) => !['type', 'properties', 'required', 'additionalProperties'].includes(k))]).toEqual([t.name, []]);
      expect([t.name, 'idempotency_key' in t.inputSchema.properties]).toEqual([t.name, !t.annotations.readOnlyHint && !t.annotations.idempotentHint]);
    }
    // OpenAPI 3.0's nullable as every client reads it (Gemini refuses a type array); the
    // length limit stays with the server, which still judges by the whole schema.
    expect(tools[1]!.inputSchema.properties.phone).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
  });

  it('answers a call with structuredContent and the same JSON as text', async () => {
    const res = await tool('echo_body', { name: 'Ana' });
    expect(res.body.result.structuredContent).toMatchObject({ input: { name: 'Ana' } });
    expect(JSON.parse(res.body.result.content[0].text)).toEqual(res.body.result.structuredContent);
  });

  it('gives invalid arguments and refused actions as tool errors, with the sentence REST gives', async () => {
    expect((await tool('echo_body', { name: 'Ana', count: true })).body.result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'count must be a whole number.' }],
    });
    expect((await tool('fail_write', { how: 'refused' })).body.result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'That cannot be done today.' }],
    });
    const broken = (await tool('fail_write', { how: 'broken' })).body.result;
    expect(broken.isError).toBe(true);
    expect(broken.content[0].text).toMatch(/^Something went wrong on our side and nothing was changed\./);
    expect(broken.content[0].text).not.toContain('deadbeef');
    expect((await tool('say_count', {})).body.result.isError).toBe(true);
    expect((await tool('no_such_tool', {})).body).toMatchObject({ error: { code: -32602 } });
    expect((await tool('echo_body', [])).body).toMatchObject({ error: { code: -32602 } });
  });

  it('replays a write with the same idempotency_key, and ignores one on a read, unchecked', async () => {
    const caller = as(`c_${randomUUID()}`);
    const key = randomUUID();
    const first = await tool('echo_body', { name: 'Bo', idempotency_key: key }, caller);
    const again = await tool('echo_body', { name: 'Bo', idempotency_key: key }, caller);
    expect(again.body.result.structuredContent).toEqual(first.body.result.structuredContent);
    expect((await tool('echo_body', { name: 'Bo', idempotency_key: 'not a key' }, caller)).body.result).toMatchObject({ isError: true });
    for (const ignored of ['k', 'not a key', 42]) {
      const read = await tool('echo_query', { count: 1, idempotency_key: ignored }, caller);
      expect(read.body.result).toEqual({ content: expect.any(Array), structuredContent: { input: { count: 1 } } });
    }
  });
});

describe('answers the transport gives, with their HTTP status and headers', () => {
  it('403 with WWW-Authenticate for a call the credential may not make', async () => {
    const res = await tool('echo_body', { name: 'Ana' }, as('forbidden_1'));
    expect([res.status, res.headers.get('www-authenticate'), res.body.error]).toEqual([
      403,
      'Bearer error="insufficient_scope"',
      { code: -32600, message: 'This key may only read.' },
    ]);
  });

  it('429 with Retry-After past the credential’s budget', async () => {
    const caller = as(`c_${randomUUID()}`);
    for (let i = 0; i < 3; i += 1) expect((await tool('echo_query', { count: 1 }, caller)).status).toBe(200);
    const res = await tool('echo_query', { count: 1 }, caller);
    expect([res.status, res.headers.get('retry-after'), res.headers.get('ratelimit-policy')]).toEqual([
      429,
      expect.stringMatching(/^\d+$/),
      '"reads";q=3;w=60',
    ]);
    expect(res.body.error).toMatchObject({ code: -32600, message: expect.stringMatching(/^Too many reads from here/) });
  });

  it('503 with Retry-After when the database is away', async () => {
    const res = await tool('fail_write', { how: 'away' });
    expect([res.status, res.headers.get('retry-after'), res.body.error.code]).toEqual([503, '2', -32603]);
    expect(res.body.error.message).toMatch(/could not reach its database/);
  });
});

describe('an idempotency key, the same rule on both transports', () => {
  it('is ignored on a read, unchecked, over REST as over MCP, and replays a write over REST', async () => {
    const caller = as(`c_${randomUUID()}`);
    for (const ignored of ['k', 'not a key', '']) {
      const res = await fetch(`${kit.url}/api/v1/echo_query?count=1`, { headers: { ...caller, 'Idempotency-Key': ignored } });
      expect([ignored, res.status, res.headers.get('idempotent-replayed')]).toEqual([ignored, 200, null]);
    }
    const write = (key: string) =>
      fetch(`${kit.url}/api/v1/echo_body`, {
        method: 'POST',
        headers: { ...caller, 'content-type': 'application/json', 'Idempotency-Key': key },
        body: '{"name":"Cy"}',
      });
    expect((await write('not a key')).status).toBe(400);
    const key = randomUUID();
    const first = await write(key);
    const again = await write(key);
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(await again.json()).toEqual(await first.json());
  });
});

describe('protocol revision 2026-07-28 beside the 2025 handshake', () => {
  const V = '2026-07-28';
  const meta = (over: Json = {}) => ({
    'io.modelcontextprotocol/protocolVersion': V,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    ...over,
  });
  /** A request as the revision sends it: `_meta` in the body, the MCP headers beside it. */
  const modern = (
    method: string,
    params: Json = {},
    headers: Record<string, string | undefined> = {},
    caller: Record<string, string> = as(`c_${randomUUID()}`),
  ) => {
    const h: Record<string, string> = { ...caller, 'MCP-Protocol-Version': V, 'Mcp-Method': method };
    if (typeof params.name === 'string') h['Mcp-Name'] = params.name;
    for (const [k, v] of Object.entries(headers)) {
      if (v === undefined) delete h[k];
      else h[k] = v;
    }
    return post(JSON.stringify({ jsonrpc: '2.0', id: 9, method, params: { _meta: meta(), ...params } }), h);
  };

  it('answers server/discover with every revision it serves, the capabilities, who it is and the rules', async () => {
    const res = await modern('server/discover');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: 9,
      result: {
        resultType: 'complete',
        supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
        capabilities: { tools: {} },
        instructions: 'Test only.',
        ttlMs: expect.any(Number),
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': expect.objectContaining({ name: 'kit' }) },
      },
    });
  });

  it('answers tools/list and a tools/call with no initialize before them, each result complete and signed', async () => {
    const list = (await modern('tools/list')).body.result;
    expect(list).toMatchObject({
      resultType: 'complete',
      ttlMs: expect.any(Number),
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'kit' } },
    });
    expect(list.tools.map((t: Json) => t.name)).toEqual(['echo_query', 'echo_body', 'fail_write', 'say_count']);
    const call = await modern('tools/call', { name: 'echo_query', arguments: { count: 3 } });
    expect(call.status).toBe(200);
    expect(call.body.result).toMatchObject({
      resultType: 'complete',
      structuredContent: { input: { count: 3 } },
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'kit' } },
    });
    // A tool's refusal is still a tool result, complete.
    expect((await modern('tools/call', { name: 'fail_write', arguments: { how: 'refused' } })).body.result).toMatchObject({
      resultType: 'complete',
      isError: true,
    });
    // Mcp-Name may carry the name Base64-encoded (transports/streamable-http §Value Encoding).
    const encoded = await modern(
      'tools/call',
      { name: 'echo_query', arguments: { count: 1 } },
      { 'Mcp-Name': `=?base64?${Buffer.from('echo_query').toString('base64')}?=` },
    );
    expect(encoded.status).toBe(200);
  });

  it('keeps the 2025 handshake as it was: no resultType, and initialize still negotiates', async () => {
    const init = await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } });
    expect(init.body.result).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: { tools: { listChanged: false } },
      serverInfo: expect.any(Object),
      instructions: 'Test only.',
    });
    const list = await rpc('tools/list', {}, { ...as('c'), 'MCP-Protocol-Version': '2025-11-25' });
    expect(list.body.result.resultType).toBeUndefined();
    // initialize asking for 2026-07-28 (which has no handshake) is answered with the newest handshake revision.
    expect((await rpc('initialize', { protocolVersion: V })).body.result.protocolVersion).toBe('2025-11-25');
  });

  it.each([
    [
      'a version it does not speak in _meta',
      () => modern('tools/list', { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }) }, { 'MCP-Protocol-Version': '2099-01-01' }),
      400,
      -32022,
    ],
    [
      'a 2026 header with no _meta',
      () => post(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }), { ...as('c'), 'MCP-Protocol-Version': V, 'Mcp-Method': 'tools/list' }),
      400,
      -32602,
    ],
    ['_meta without the client capabilities', () => modern('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': V } }), 400, -32602],
    ['_meta whose version is not text', () => modern('tools/list', { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': 20260728 }) }), 400, -32602],
    ['a version header that differs from _meta', () => modern('tools/list', {}, { 'MCP-Protocol-Version': '2025-11-25' }), 400, -32020],
    ['no version header', () => modern('tools/list', {}, { 'MCP-Protocol-Version': undefined }), 400, -32020],
    ['no Mcp-Method header', () => modern('tools/list', {}, { 'Mcp-Method': undefined }), 400, -32020],
    ['an Mcp-Method header naming another method', () => modern('tools/list', {}, { 'Mcp-Method': 'tools/call' }), 400, -32020],
    ['a tools/call without Mcp-Name', () => modern('tools/call', { name: 'echo_query', arguments: {} }, { 'Mcp-Name': undefined }), 400, -32020],
    [
      'a tools/call whose Mcp-Name names another tool',
      () => modern('tools/call', { name: 'echo_query', arguments: {} }, { 'Mcp-Name': 'echo_body' }),
      400,
      -32020,
    ],
    ['an Mcp-Name with broken Base64', () => modern('tools/call', { name: 'echo_query', arguments: {} }, { 'Mcp-Name': '=?base64?%%%?=' }), 400, -32020],
    [
      'initialize under a 2026 header (that revision has no handshake)',
      () => rpc('initialize', { protocolVersion: V }, { ...as('c'), 'MCP-Protocol-Version': V }),
      400,
      -32020,
    ],
    ['ping, which 2026-07-28 removed', () => modern('ping'), 404, -32601],
    ['a method it does not know', () => modern('resources/list'), 404, -32601],
  ])('refuses %s with the error the revision defines', async (_what, send, status, code) => {
    const res = await send();
    expect([res.status, res.body.error?.code]).toEqual([status, code]);
    expect(res.body.error.message.length).toBeGreaterThan(10);
    if (code === -32022)
      expect(res.body.error.data).toEqual({ supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'], requested: expect.any(String) });
  });

  it('lists in server/discover and -32022 every revision initialize serves, and serves one named in _meta as that revision, never refusing a revision it lists', async () => {
    const listed = (await modern('server/discover')).body.result.supportedVersions as string[];
    const refused = await modern(
      'tools/list',
      { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }) },
      { 'MCP-Protocol-Version': '2099-01-01' },
    );
    expect(refused.body.error.data.supported).toEqual(listed);
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      const init = await rpc('initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'x', version: '1' } });
      expect([version, init.body.result.protocolVersion]).toEqual([version, version]);
      expect(listed).toContain(version);
      const named = await modern('tools/list', { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': version }) }, { 'MCP-Protocol-Version': version });
      expect([version, named.status, named.body.error]).toEqual([version, 200, undefined]);
      // Served as that 2025 revision: its result has no resultType.
      expect(named.body.result.tools.map((t: Json) => t.name)).toContain('echo_query');
      expect(named.body.result.resultType).toBeUndefined();
    }
  });

  it('takes a 2026 notification with 202, and still asks every caller for credentials first', async () => {
    const note = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: meta(), requestId: 1 } }), {
      ...as('c'),
      'MCP-Protocol-Version': V,
      'Mcp-Method': 'notifications/cancelled',
    });
    expect(note).toMatchObject({ status: 202, body: undefined });
    const bare = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }), {
      ...as('c'),
      'MCP-Protocol-Version': V,
    });
    expect(bare).toMatchObject({ status: 202, body: undefined });
    expect((await modern('tools/list', {}, {}, {})).status).toBe(401);
  });
});
