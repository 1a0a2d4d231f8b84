import { parse as parseQuery } from 'node:querystring';
import fc from 'fast-check';
import request from 'supertest';
import * as OpenApiValidator from 'express-openapi-validator';
import express from 'express';
import { buildOpenApiDocument, inputFromQuery, validateInput, type Operation } from '../src';
import { as, OPERATIONS, readOp, startKit, writeOp, type Kit } from '@frontdesk/dev-env/http-kit';

// The REST judge is express-openapi-validator over /openapi.json; MCP's is Ajv over the same
// schemas. Whatever the input, both must accept and refuse alike, in the same sentence.
let kit: Kit;
// Every middleware the validator makes is counted as it runs, by name.
const original = OpenApiValidator.middleware;
const validatorRuns: string[] = [];
const made = jest.spyOn(OpenApiValidator, 'middleware').mockImplementation((options) =>
  original(options).map((run) =>
    Object.defineProperty(
      (req: express.Request, res: express.Response, next: express.NextFunction) => {
        validatorRuns.push(run.name);
        return run(req, res, next);
      },
      'name',
      { value: run.name },
    ),
  ),
);
beforeAll(async () => {
  kit = await startKit({}, 'silent');
});
afterAll(() => kit.close());

/** What MCP's judge says of an input: accepted, or its sentence. */
function ajvVerdict(op: Operation<unknown>, read: () => unknown): { accepted: unknown } | { error: string } {
  try {
    return { accepted: validateInput(op, read()) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

async function restVerdict(res: request.Response) {
  if (res.status === 200) return { accepted: (res.body as { input: unknown }).input };
  expect([res.status, res.headers['content-type']]).toEqual([400, expect.stringMatching(/application\/json/)]);
  return { error: (res.body as { error: string }).error };
}

const get = (query: string) => request(kit.app).get(`/api/v1/echo_query?${query}`).set(as('reader'));
const post = (body: string) => request(kit.app).post('/api/v1/echo_body').set(as('writer')).set('Content-Type', 'application/json').send(body);

describe('the REST judge', () => {
  it('is express-openapi-validator, made once for the host and run on every request', async () => {
    const before = made.mock.calls.length;
    const steps = async (send: () => Promise<unknown>) => {
      const from = validatorRuns.length;
      await send();
      return validatorRuns.slice(from);
    };
    // The first request of an operation goes through the whole chain, which finds its route.
    expect(await steps(() => get('count=1').expect(200))).toEqual(['pathParamsMiddleware', 'metadataMiddleware', 'securityMiddleware', 'requestMiddleware']);
    // Later ones go to its request validation alone, refusals included.
    for (const query of ['count=2', 'count=99', 'count=x']) expect(await steps(() => get(query))).toEqual(['requestMiddleware']);
    expect(await steps(() => post('{"name":"Ana"}').expect(200))).toContain('requestMiddleware');
    expect(await steps(() => post('{"name":true}').expect(400))).toEqual(['requestMiddleware']);
    expect(made.mock.calls.length - before).toBeLessThanOrEqual(1);
  });

  /** Each place a refusal is sent in, and what MCP's judge says of the same input. */
  const places = {
    query: { send: get, mcp: (query: string) => ajvVerdict(readOp, () => inputFromQuery(readOp, parseQuery(query))) },
    body: { send: post, mcp: (body: string) => ajvVerdict(writeOp, () => JSON.parse(body) as unknown) },
  };

  it.each([
    ['a number that does not read cleanly', 'query', 'count=1e1', 'count must be a whole number.'],
    ['Infinity', 'query', 'count=Infinity', 'count must be a whole number.'],
    ['a spaced number', 'query', 'count=%202', 'count must be a whole number.'],
    ['a hex number', 'query', 'count=0x5', 'count must be a whole number.'],
    ['an empty number', 'query', 'count=', 'count must be a whole number.'],
    ['true for a number', 'query', 'count=true', 'count must be a whole number.'],
    ['a bound', 'query', 'count=11', 'count must be at most 10.'],
    ['a half step', 'query', 'count=1&ratio=0.3', 'ratio must be a whole or half number, like 2 or 2.5.'],
    ['yes for a boolean', 'query', 'count=1&flag=yes', 'flag must be true or false.'],
    ['an enum', 'query', 'count=1&kind=mega', 'kind must be one of: deep, standard.'],
    ['a pattern', 'query', 'count=1&zip=123', 'zip must be exactly 5 digits, like 10001.'],
    ['an item', 'query', 'count=1&nums=1,x', 'nums[1] must be a whole number.'],
    ['an empty item', 'query', 'count=1&tags=a,,b', 'tags[1] must not be empty.'],
    ['too many items', 'query', 'count=1&tags=a,b,c,d', 'tags may have at most 3 items.'],
    ['a missing field', 'query', 'kind=deep', 'count is required.'],
    ['an unknown key', 'query', 'count=1&colour=red', 'colour is not a parameter of this operation.'],
    ['a repeated key', 'query', 'count=1&count=2', 'count is given more than once; give it once (lists are comma-separated).'],
    ['a nested key', 'query', 'count=1&tags[a][b]=1', 'tags[a][b] is not a parameter of this operation.'],
    ['a NUL byte', 'query', 'count=1&at=a%00b', 'at contains a character that cannot be stored (a NUL byte or a broken UTF-16 surrogate).'],
    ['true for a number', 'body', '{"name":"Ana","count":true}', 'count must be a whole number.'],
    ['null for a number', 'body', '{"name":"Ana","count":null}', 'count must be a whole number.'],
    ['text for a number', 'body', '{"name":"Ana","count":"2"}', 'count must be a whole number.'],
    ['1e999', 'body', '{"name":"Ana","count":1e999}', 'count must be a finite number.'],
    ['a lone surrogate', 'body', '{"name":"\\ud800"}', 'name contains a character that cannot be stored (a NUL byte or a broken UTF-16 surrogate).'],
    ['an unknown field', 'body', '{"name":"Ana","colour":"red"}', 'colour is not a field of this operation.'],
    ['a __proto__ field', 'body', '{"name":"Ana","__proto__":{"x":1}}', '__proto__ is not a field of this operation.'],
    ['a nested field', 'body', '{"name":"Ana","prices":{"base":-1}}', 'prices.base must be at least 0.'],
    ['an item of a list', 'body', '{"name":"Ana","items":[{"n":1},{"n":"2"}]}', 'items[1].n must be a whole number.'],
    ['a list', 'body', '[1]', "The input must be a JSON object of the operation's fields."],
    ['a long name', 'body', '{"name":"Anastasia"}', 'name must be at most 5 characters long.'],
  ] as const)('refuses %s in a %s in the sentence MCP gives', async (_what, where, sent, sentence) => {
    const res = await places[where].send(sent).expect(400);
    expect(res.body).toEqual({ error: sentence });
    expect(places[where].mcp(sent)).toEqual({ error: sentence });
  });

  it('judges a known route by all its rules whichever fields a request sends (the validator is shown only those)', async () => {
    await get('count=1&kind=deep&tags=a').expect(200);
    expect((await get('kind=deep').expect(400)).body).toEqual({ error: 'count is required.' });
    expect((await get('count=1&tags=a,b,c,d').expect(400)).body).toEqual({ error: 'tags may have at most 3 items.' });
    expect((await get('tags=a&kind=deep').expect(400)).body).toEqual({ error: 'count is required.' });
    expect((await get('count=3&nums=1,2&flag=true').expect(200)).body.input).toEqual({ count: 3, nums: [1, 2], flag: true });
  });

  it('reads a query strictly and passes reserved characters unencoded, adding nothing to the input', async () => {
    const res = await get('count=2&ratio=1.5&flag=false&tags=oven, fridge&nums=0,3&at=2026-11-24T09:00:00-05:00').expect(200);
    expect(res.body.input).toEqual({ count: 2, ratio: 1.5, flag: false, tags: ['oven', 'fridge'], nums: [0, 3], at: '2026-11-24T09:00:00-05:00' });
    const body = await post('{"name":"Ana"}').expect(200);
    // The schema's defaults are the handler's to apply, on every transport alike.
    expect(body.body.input).toEqual({ name: 'Ana' });
  });

  it('takes null where the schema allows it, and an empty POST as {}', async () => {
    expect((await post('{"name":"Ana","phone":null}').expect(200)).body.input).toEqual({ name: 'Ana', phone: null });
    const empty = await request(kit.app).post('/api/v1/echo_body').set(as('writer')).expect(400);
    expect(empty.body).toEqual({ error: 'name is required.' });
    const patch = await request(kit.app).post('/api/v1/echo_body').set(as('writer')).set('Content-Type', 'application/merge-patch+json').send('{"name":"Bo"}');
    expect([patch.status, patch.body.input]).toEqual([200, { name: 'Bo' }]);
  });

  it('answers 415 for a body that is not JSON and 413 for one over 64 KB', async () => {
    const text = await request(kit.app).post('/api/v1/echo_body').set(as('writer')).set('Content-Type', 'text/plain').send('name=Ana').expect(415);
    expect(text.body.error).toMatch(/Send the body as JSON/);
    await post(JSON.stringify({ name: 'A', pad: 'x'.repeat(70_000) })).expect(413);
  });

  it('refuses a long X-Client-Name as MCP does', async () => {
    const res = await get('count=1').set('X-Client-Name', 'x'.repeat(101)).expect(400);
    expect(res.body).toEqual({ error: 'X-Client-Name must be at most 100 characters long.' });
  });
});

// Text that reads as several types, and text that almost does.
const text = fc.oneof(
  fc.constantFrom('', ' ', '0', '7', '-1', '1.5', '2.0', '1e3', '0x1F', 'Infinity', 'NaN', 'true', 'false', 'TRUE', 'deep', 'standard', '10001', '1000'),
  fc.constantFrom('a,b', ',', 'x,,y', 'a\u0000b', '\ud800', '__proto__', '10:00', '2026-11-24T09:00:00-05:00', 'x'.repeat(41)),
  fc.string({ maxLength: 6 }),
);
const queryKey = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...Object.keys(readOp.input.properties)) },
  fc.constantFrom('colour', 'tags[a]', 'constructor'),
);
/** Percent-encoded, except ':' and ','; a lone surrogate as the invalid UTF-8 a careless client sends. */
const encode = (s: string) =>
  s
    .split(/([\ud800-\udfff])/u)
    .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part).replaceAll('%3A', ':').replaceAll('%2C', ',')))
    .join('');
const json: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53, 'Ana', '', 'x\ud800', [], {}),
  fc.integer({ min: -5, max: 20 }),
  fc.string({ maxLength: 7 }),
  fc.record({ base: fc.oneof(fc.integer({ min: -2, max: 5 }), fc.constant('1')) }, { requiredKeys: [] }),
  fc.array(fc.record({ n: fc.oneof(fc.integer(), fc.string({ maxLength: 2 })) }, { requiredKeys: [] }), { maxLength: 3 }),
);
const bodyKey = fc.oneof({ weight: 10, arbitrary: fc.constantFrom(...Object.keys(writeOp.input.properties)) }, fc.constantFrom('colour', 'constructor'));

describe('REST and MCP judge alike', () => {
  it('any query: the same verdict, the same sentence, the same input', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(queryKey, text), { maxLength: 5 }), async (pairs) => {
        const query = pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
        const expected = ajvVerdict(readOp, () => inputFromQuery(readOp, parseQuery(query)));
        expect({ query, verdict: await restVerdict(await get(query)) }).toEqual({ query, verdict: expected });
      }),
      { numRuns: 300, seed: 20261124 },
    );
  });

  it('any body: the same verdict, the same sentence, the same input', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(bodyKey, json, { maxKeys: 4 }), async (input) => {
        const body = JSON.stringify(input);
        const expected = ajvVerdict(writeOp, () => JSON.parse(body) as unknown);
        expect({ body, verdict: await restVerdict(await post(body)) }).toEqual({ body, verdict: expected });
      }),
      { numRuns: 300, seed: 20261124 },
    );
  });
});

describe('the generated /openapi.json', () => {
  it('passes the validator’s own check of an OpenAPI 3.0 document', async () => {
    const doc = buildOpenApiDocument({
      title: 'Kit',
      version: '1.0.0',
      description: 'The kit.',
      serverUrl: 'http://kit.test',
      operations: OPERATIONS,
      headerParameters: [{ name: 'X-User-Name', in: 'header', required: false, schema: { type: 'string', maxLength: 100 } }],
      oauth: { authorizationUrl: 'http://kit.test/authorize', tokenUrl: 'http://kit.test/token', scopes: { read: 'Read.', write: 'Write.' } },
      examples: { echo_query: { input: {} } },
    });
    const app = express();
    app.use(OpenApiValidator.middleware({ apiSpec: doc as never, validateApiSpec: true, validateRequests: false, validateSecurity: false }));
    app.get('/api/v1/echo_query', (_req, res) => res.json({ ok: true }));
    app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => res.status(500).json({ error: err.message }));
    const res = await request(app).get('/api/v1/echo_query');
    expect([res.status, res.body]).toEqual([200, { ok: true }]);
  });
});
