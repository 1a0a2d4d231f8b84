import Ajv from 'ajv';
import { LATEST_MCP_PROTOCOL_VERSION } from '@frontdesk/http';
import { answer, fields, NO_INPUT, str, text } from '@frontdesk/domain';
import { createLogger } from '@frontdesk/http';
import request from 'supertest';
import { createProDeskApp } from '../src';
import { defineOperation } from '../src/operations/define';
import { ALL_OPERATIONS, PRO_DESK_OPERATIONS, TEST_KEY_SEALER, proDeskHarness, newPro, MONDAY_7AM, type Harness } from '@frontdesk/dev-env/pro-desk';
import { READ_HINTS, expectAnnotated, listenOn, masked, mcpClient, type Hints } from '@frontdesk/dev-env/mcp-client';

let h: Harness;
let server: Awaited<ReturnType<typeof listenOn>>;
beforeAll(async () => {
  h = await proDeskHarness();
  server = await listenOn(h.app);
});
afterAll(async () => {
  await server.close();
  await h.close();
});

type Json = Record<string, any>;

describe('MCP on the pro host, through the official SDK client', () => {
  it('initializes with server info and the rules, and lists the 27 operations as tools with valid schemas', async () => {
    const pro = await newPro(h);
    const client = await mcpClient(server.url, pro.auth);
    expect(client.getServerVersion()).toEqual({ name: 'front-desk-pro', title: 'Front Desk for cleaning businesses', version: '1.0.0' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {} });
    expect(client.getInstructions()).toMatch(/never send them links/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(PRO_DESK_OPERATIONS);
    const ajv = new Ajv({ strict: false });
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
      expect(tool.description!.length).toBeGreaterThan(30);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.quote_job!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(byName.cancel_job!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.book_job!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byName.update_business!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.flag_bad_lead!.annotations).toMatchObject({ idempotentHint: true });
    expect((byName.open_times!.inputSchema.properties as Json).add_ons.type).toBe('array');
    await client.close();
  });

  it('annotates every tool with a title and all four hints, as its definition declares them', async () => {
    const pro = await newPro(h);
    const client = await mcpClient(server.url, pro.auth);
    const { tools } = await client.listTools();
    expectAnnotated(tools, ALL_OPERATIONS.pro);
    // The judgments behind a few: destructive replaces or takes away what was there (false
    // promises only additions); nothing here mails a customer (a change the business makes is
    // theirs to tell); only the webhook tools that send reach outside.
    const hints = (name: string): Hints => {
      const a = tools.find((t) => t.name === name)!.annotations!;
      return [a.readOnlyHint!, a.destructiveHint!, a.idempotentHint!, a.openWorldHint!];
    };
    expect(hints('schedule')).toEqual([false, false, false, false]);
    expect(hints('log_lead')).toEqual([false, false, false, false]);
    expect(hints('cancel_job')).toEqual([false, true, false, false]);
    expect(hints('reschedule_job')).toEqual([false, true, true, false]);
    expect(hints('add_webhook')).toEqual([false, false, false, true]);
    expect(hints('test_webhook')).toEqual([false, false, true, true]);
    expect(hints('updates')).toEqual(READ_HINTS);
    await client.close();
  });

  it('gives the same result as REST for every tool, step by step on twin businesses', async () => {
    h.clock.now = MONDAY_7AM;
    const viaMcp = await newPro(h, { name: 'Twin A' });
    const viaRest = await newPro(h, { name: 'Twin B' });
    const client = await mcpClient(server.url, { ...viaMcp.auth, 'X-Client-Name': 'Claude' });
    const rest = async (name: string, method: 'GET' | 'POST', input: Json) => {
      const req =
        method === 'GET'
          ? h.api.get(`/api/v1/${name}`).query(Object.fromEntries(Object.entries(input).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v])))
          : h.api.post(`/api/v1/${name}`).send(input);
      const res = await req.set(viaRest.auth).set('X-Client-Name', 'Claude');
      return res.status === 200 ? { ok: res.body as Json } : { error: res.body.error as string };
    };
    const mcp = async (name: string, args: Json) => {
      const res = (await client.callTool({ name, arguments: args })) as Json;
      if (res.isError) return { error: res.content[0].text as string };
      expect(JSON.parse(res.content[0].text)).toEqual(res.structuredContent);
      return { ok: res.structuredContent as Json };
    };
    const both = async (name: string, method: 'GET' | 'POST', a: Json, b: Json = a) => {
      const [m, r] = [await mcp(name, a), await rest(name, method, b)];
      expect(masked(m)).toEqual(masked(r));
      return { m: m.ok as Json, r: r.ok as Json };
    };

    await both('my_business', 'GET', {});
    await both('quote_job', 'GET', { bedrooms: 3, bathrooms: 2.5, add_ons: ['oven', 'fridge'], pets: true });
    await both('quote_job', 'GET', { bedrooms: 11, bathrooms: 2 }); // refused the same way
    await both('quote_job', 'GET', { bedrooms: 2, bathrooms: 1, clean_type: 'sparkly' });
    await both('open_times', 'GET', { bedrooms: 2, bathrooms: 1, days: 3, start_after: '10:00' });
    const lead = await both('log_lead', 'POST', {
      source: 'marketplace_2',
      lead_ref: 'T-1',
      lead_cost: 20,
      customer_first_name: 'Zelda',
      bedrooms: 2,
      bathrooms: 1,
      zip: '10001',
    });
    await both('follow_ups_due', 'GET', {});
    await both('update_lead', 'POST', { lead_id: lead.m.lead_id, contacted: true, notes: 'Sent' }, { lead_id: lead.r.lead_id, contacted: true, notes: 'Sent' });
    await both('update_lead', 'POST', { lead_id: lead.m.lead_id }, { lead_id: lead.r.lead_id });
    await both(
      'flag_bad_lead',
      'POST',
      { lead_id: lead.m.lead_id, reason: 'no_response', evidence: ['2026-11-23: no answer'] },
      { lead_id: lead.r.lead_id, reason: 'no_response', evidence: ['2026-11-23: no answer'] },
    );
    const booking = {
      bedrooms: 2,
      bathrooms: 1,
      start: '2026-11-24T09:00:00-05:00',
      customer_name: 'Ana',
      customer_phone: '2125550100',
      address: '1 Main St',
      zip: '10001',
    };
    const booked = await both('book_job', 'POST', { ...booking, lead_id: lead.m.lead_id }, { ...booking, lead_id: lead.r.lead_id });
    await both('book_job', 'POST', { ...booking, customer_phone: undefined }); // invalid the same way
    const second = await both('book_job', 'POST', { ...booking, start: '2026-11-24T13:00:00-05:00' });
    await both('schedule', 'GET', {});
    const clients = await both('list_clients', 'GET', { search: '555-0100', limit: 5 });
    const [cm, cr] = [{ client_id: clients.m.clients[0].client_id }, { client_id: clients.r.clients[0].client_id }];
    await both('update_client_notes', 'POST', { ...cm, notes: 'Side door.' }, { ...cr, notes: 'Side door.' });
    await both('client_history', 'GET', cm, cr);
    await both('client_history', 'GET', { client_id: 'cl_unknown' }); // refused the same way
    await both('updates', 'GET', { since: 0 });
    await both('cancel_job', 'POST', { booking_id: booked.m.booking_id }, { booking_id: booked.r.booking_id });
    await both('cancel_job', 'POST', { booking_id: booked.m.booking_id }, { booking_id: booked.r.booking_id }); // already cancelled
    await both('report_no_show', 'POST', { booking_id: second.m.booking_id }, { booking_id: second.r.booking_id }); // not started yet
    h.clock.now = new Date('2026-11-24T19:00:00Z');
    await both('report_no_show', 'POST', { booking_id: second.m.booking_id }, { booking_id: second.r.booking_id });
    await both('pipeline', 'GET', { month: '2026-11' });
    await both('cancel_job', 'POST', { booking_id: 'bk_unknown' });
    await client.close();
  });

  it('lists a newly defined operation with no other change', async () => {
    const dummy = defineOperation({
      name: 'echo_word',
      tag: 'business',
      title: 'Echo a word',
      description: 'Returns the word it is given, with the business name. A test operation.',
      method: 'POST',
      input: fields({ word: text({ maxLength: 20 }) }, ['word']),
      output: answer({ word: str, business: str }),
      readOnly: true,
      async handler(input, { principal }) {
        return { word: input.word, business: principal.name };
      },
    });
    const { app } = createProDeskApp(
      {
        db: h.t.db,
        config: { publicUrl: 'http://pro.test', bookingUrl: 'http://book.test', mcpAllowedOrigins: [], keySealer: TEST_KEY_SEALER, checkAnswers: true },
        logger: createLogger('t', 'silent'),
        clock: () => h.clock.now,
      },
      [dummy],
    );
    const own = await listenOn(app);
    const pro = await newPro(h, { name: 'Echo Co' });
    const client = await mcpClient(own.url, pro.auth);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(PRO_DESK_OPERATIONS.length + 1); // and echo_word
    // Published as every client loads it; the server still refuses a word past 20 characters below.
    expect(tools.find((t) => t.name === 'echo_word')).toMatchObject({
      inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
      annotations: { readOnlyHint: true },
    });
    expect(await client.callTool({ name: 'echo_word', arguments: { word: 'hi' } })).toMatchObject({ structuredContent: { word: 'hi', business: 'Echo Co' } });
    const tooLong = (await client.callTool({ name: 'echo_word', arguments: { word: 'x'.repeat(21) } })) as Json;
    expect(tooLong).toMatchObject({ isError: true, content: [{ text: 'word must be at most 20 characters long.' }] });
    await request(app).post('/api/v1/echo_word').set(pro.auth).send({ word: 'rest' }).expect(200, { word: 'rest', business: 'Echo Co' });
    expect((await request(app).get('/openapi.json')).body.paths['/api/v1/echo_word']).toBeDefined();
    expect(NO_INPUT.type).toBe('object');
    await client.close();
    await own.close();
  });
});

describe('MCP over raw HTTP: every error case', () => {
  let auth: Record<string, string>;
  beforeAll(async () => {
    ({ auth } = await newPro(h));
  });
  const rpc = (body: unknown, headers: Record<string, string> = {}) =>
    h.api
      .post('/mcp')
      .set(auth)
      .set(headers)
      .set('Content-Type', 'application/json')
      .send(typeof body === 'string' ? body : JSON.stringify(body));

  it('answers initialize with the version asked for when supported, else the latest', async () => {
    const asked = await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    }).expect(200);
    expect(asked.body).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'front-desk-pro' } },
    });
    expect(asked.body.result.instructions).toMatch(/Confirm every change with the pro/);
    const old = await rpc({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2024-01-01' } }).expect(200);
    expect(old.body.result.protocolVersion).toBe(LATEST_MCP_PROTOCOL_VERSION);
    expect(LATEST_MCP_PROTOCOL_VERSION).toBe('2025-11-25');
  });

  it('answers ping, and 202 with no body to notifications and responses', async () => {
    await rpc({ jsonrpc: '2.0', id: 'p', method: 'ping' }).expect(200, { jsonrpc: '2.0', id: 'p', result: {} });
    const note = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }).expect(202);
    expect(note.text).toBe('');
    await rpc({ jsonrpc: '2.0', id: 9, result: {} }).expect(202);
  });

  it.each([
    ['malformed JSON', '{"jsonrpc": "2.0", "id": 1, "method":', 400, -32700],
    ['a body that is not JSON-RPC', { hello: 'world' }, 400, -32600],
    ['the wrong jsonrpc version', { jsonrpc: '1.0', id: 1, method: 'ping' }, 400, -32600],
    ['a bare string', '"ping"', 400, -32600],
    ['an unknown method', { jsonrpc: '2.0', id: 1, method: 'prompts/list' }, 200, -32601],
    ['an unknown tool', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }, 200, -32602],
    ['a call without a tool name', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: {} } }, 200, -32602],
    ['arguments that are not an object', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'quote_job', arguments: [1] } }, 200, -32602],
  ])('refuses %s with the JSON-RPC error code', async (_what, body, status, code) => {
    const res = await rpc(body).expect(status);
    expect(res.body.jsonrpc).toBe('2.0');
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.message.length).toBeGreaterThan(10);
  });

  it('reports invalid arguments and refused actions as tool results with the REST sentence', async () => {
    const invalid = await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'quote_job', arguments: { bedrooms: '3', bathrooms: 2 } },
    }).expect(200);
    expect(invalid.body.result).toEqual({ isError: true, content: [{ type: 'text', text: 'bedrooms must be a whole number.' }] });
    const refused = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'cancel_job', arguments: { booking_id: 'bk_nope' } } }).expect(
      200,
    );
    expect(refused.body.result).toMatchObject({ isError: true, content: [{ text: 'No booking with id bk_nope on this schedule.' }] });
  });

  it('answers GET and DELETE with 405, a bad protocol version with 400, a foreign origin with 403, no key with 401', async () => {
    const get = await h.api.get('/mcp').set(auth).expect(405);
    expect(get.headers.allow).toBe('POST');
    await h.api.delete('/mcp').set(auth).expect(405);
    const version = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'MCP-Protocol-Version': '2099-01-01' }).expect(400);
    // A later revision than ours: the 2026-07-28 error, listing every revision served here.
    expect(version.body.error).toMatchObject({ code: -32022, message: expect.stringMatching(/^Unsupported protocol version 2099-01-01/) });
    expect(version.body.error.data).toEqual({ supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'], requested: '2099-01-01' });
    const older = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'MCP-Protocol-Version': '2024-01-01' }).expect(400);
    expect(older.body.error.message).toMatch(/Unsupported MCP-Protocol-Version 2024-01-01/);
    await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'MCP-Protocol-Version': '2025-06-18' }).expect(200);
    const evil = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { Origin: 'https://evil.example' }).expect(403);
    expect(evil.body.error.message).toMatch(/not allowed/);
    await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { Origin: 'https://claude.ai' }).expect(200);
    await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { Origin: 'http://localhost:6274' }).expect(200);
    await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { Origin: 'http://pro.test' }).expect(200);
    const anonymous = await h.api.post('/mcp').set('Content-Type', 'application/json').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(401);
    expect(anonymous.headers['www-authenticate']).toBe(
      'Bearer realm="pro-desk", resource_metadata="http://pro.test/.well-known/oauth-protected-resource/mcp", scope="read write"',
    );
    await h.api.post('/mcp').set('Authorization', 'Bearer fdk_wrong').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(401);
  });
});
