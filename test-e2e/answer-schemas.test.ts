import request from 'supertest';
import Ajv from 'ajv';
import { createLogger, toJsonSchema, type Operation } from '@frontdesk/http';
import { createProDeskApp } from '@frontdesk/pro-desk';
import type { Pro } from '@frontdesk/db';
import { liarOp } from '@frontdesk/dev-env/http-kit';
import { TEST_KEY_SEALER, asPublic, bothHostsPerFile, newCleaner } from '@frontdesk/dev-env/both-hosts';
import { ALL_OPERATIONS, BOOKING_OPERATIONS, PRO_DESK_OPERATIONS } from '@frontdesk/dev-env/pro-desk';

// Every operation declares its answer's schema. /openapi.json publishes it as the 200
// response, MCP publishes it as the tool's outputSchema, and while tests run every answer
// of every operation, REST or MCP, in-process or from a spawned service, is checked against
// it (FRONT_DESK_CHECK_ANSWERS=1, set by jest's global setup): a drift fails the suite.
const h = bothHostsPerFile();

const TOP_LEVEL = ['additionalProperties', 'properties', 'required', 'type'];

describe('answer schemas', () => {
  it('are checked on every answer while the suite runs', () => {
    expect(process.env.FRONT_DESK_CHECK_ANSWERS).toBe('1');
  });

  it.each(['pro', 'book'] as const)('are published on %s as a real 200 schema for every operation, with an example that matches it', async (host) => {
    const doc = (await h[host].get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, { responses: Record<string, any> }>> };
    const ajv = new Ajv({ strict: false });
    const entries = Object.entries(doc.paths).filter(([path]) => path.startsWith('/api/v1/'));
    expect(entries.length).toBe(ALL_OPERATIONS[host].length);
    for (const [path, methods] of entries) {
      const [entry] = Object.values(methods);
      const ok = entry!.responses['200'].content['application/json'];
      expect([path, ok.schema.type, Object.keys(ok.schema.properties ?? {}).length > 0]).toEqual([path, 'object', true]);
      expect([path, ok.example === undefined]).toEqual([path, false]);
      const valid = ajv.compile(ok.schema);
      expect([path, valid(ok.example), valid.errors ?? null]).toEqual([path, true, null]);
    }
  });

  it.each(['pro', 'book'] as const)('give every %s write a request body example that its input schema accepts', async (host) => {
    const doc = (await h[host].get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, { requestBody?: any }>> };
    const ajv = new Ajv({ strict: false });
    const writes = Object.entries(doc.paths).flatMap(([path, methods]) =>
      methods.post ? [[path, methods.post.requestBody.content['application/json']] as const] : [],
    );
    expect(writes.length).toBe(ALL_OPERATIONS[host].filter((op) => op.method === 'POST').length);
    for (const [path, body] of writes) {
      expect([path, body.example === undefined]).toEqual([path, false]);
      const valid = ajv.compile(body.schema);
      expect([path, valid(body.example), valid.errors ?? null]).toEqual([path, true, null]);
    }
  });

  it("declare the book host's OAuth scheme and the scope of each operation", async () => {
    const doc = (await h.book.get('/openapi.json').expect(200)).body;
    expect(doc.components.securitySchemes.oauth2.flows.authorizationCode.scopes).toEqual({ read: expect.any(String), write: expect.any(String) });
    expect(doc.paths['/api/v1/book_cleaning'].post.security).toEqual([{ bearer: [] }, { oauth2: ['write'] }]);
    expect(doc.paths['/api/v1/find_cleaners'].get.security).toEqual([{ bearer: [] }, { oauth2: ['read'] }]);
    expect(Object.keys(doc.paths['/api/v1/book_cleaning'].post.responses)).toEqual(expect.arrayContaining(['403', '413', '415']));
  });

  it.each(['pro', 'book'] as const)("are every %s MCP tool's outputSchema, in plain JSON Schema, with the same top-level keys as inputs", async (host) => {
    const auth = host === 'pro' ? (await newCleaner(h)).auth : asPublic;
    const res = await h[host].post('/mcp').set(auth).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(200);
    const tools = res.body.result.tools as { name: string; outputSchema: Record<string, unknown> }[];
    for (const tool of tools) {
      expect([tool.name, Object.keys(tool.outputSchema).filter((k) => !TOP_LEVEL.includes(k))]).toEqual([tool.name, []]);
      expect([tool.name, JSON.stringify(tool.outputSchema).includes('"nullable"')]).toEqual([tool.name, false]);
    }
  });

  it('turn an answer that breaks its schema into a server error on both transports, never a different answer', async () => {
    const liar = liarOp as unknown as Operation<Pro>;
    const { app } = createProDeskApp(
      {
        db: h.t.db,
        config: { publicUrl: 'http://pro.test', bookingUrl: 'http://book.test', mcpAllowedOrigins: [], keySealer: TEST_KEY_SEALER, checkAnswers: true },
        logger: createLogger('t', 'silent'),
        clock: () => new Date(),
      },
      [liar],
    );
    const { auth } = await newCleaner(h);
    const rest = await request(app).get('/api/v1/say_count').set(auth);
    expect(rest.status).toBe(500);
    expect(JSON.stringify(rest.body)).not.toContain('three');
    const mcp = await request(app)
      .post('/mcp')
      .set(auth)
      .send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'say_count', arguments: {} } });
    expect(mcp.body.result.isError).toBe(true);
    expect(JSON.stringify(mcp.body)).not.toContain('three');
  });

  it('turn nullable into a JSON Schema type list, enums included', () => {
    expect(
      toJsonSchema({ type: 'object', properties: { a: { type: 'string', nullable: true, enum: ['x', null] }, b: { type: 'integer', nullable: true } } }),
    ).toEqual({
      type: 'object',
      properties: { a: { type: ['string', 'null'], enum: ['x', null] }, b: { type: ['integer', 'null'] } },
    });
  });
});

// Anthropic's API refuses a whole tool list if one input schema has anything but type,
// properties, required and additionalProperties at its top level (anyOf, oneOf, allOf, …):
// one such tool and no Claude client can load the host's tools at all.
describe('tools/list on both hosts', () => {
  it.each(['pro', 'book'] as const)(
    'gives every %s tool an input schema with only type, properties, required and additionalProperties at the top',
    async (host) => {
      const auth = host === 'pro' ? (await newCleaner(h)).auth : asPublic;
      const res = await h[host]
        .post('/mcp')
        .set(auth)
        .set('Accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
        .expect(200);
      const tools = res.body.result.tools as { name: string; inputSchema: Record<string, unknown> }[];
      expect(tools.map((t) => t.name).sort()).toEqual(host === 'pro' ? PRO_DESK_OPERATIONS : BOOKING_OPERATIONS);
      for (const tool of tools) {
        expect([tool.name, Object.keys(tool.inputSchema).filter((k) => !TOP_LEVEL.includes(k))]).toEqual([tool.name, []]);
        expect([tool.name, tool.inputSchema.type]).toEqual([tool.name, 'object']);
        expect(typeof tool.inputSchema.properties).toBe('object');
      }
    },
  );
});
