import Ajv2020 from 'ajv/dist/2020';
import { TEXT_RULE_BOUNDS } from '@frontdesk/domain';
import { asPublic, bothHostsPerFile, newCleaner } from '@frontdesk/dev-env/both-hosts';
import { ALL_OPERATIONS } from '@frontdesk/dev-env/pro-desk';

// The input schemas tools/list publishes must load in each client an assistant may run in,
// while the server keeps judging every call by the operation's whole schema. One checker per
// client below encodes that client's documented rules for a tool (a function declaration).
const h = bothHostsPerFile();

type Schema = Record<string, any>;
type Tool = { name: string; inputSchema: Schema };

/** Where a schema nests others: each sub-schema with its path. */
function* walk(schema: Schema, path: string, depth = 0): Generator<[Schema, string, number]> {
  yield [schema, path, depth];
  for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) yield* walk(sub, `${path}.${name}`, depth + 1);
  if (schema.items) yield* walk(schema.items, `${path}[]`, depth + 1);
  for (const sub of (schema.anyOf ?? []) as Schema[]) yield* walk(sub, `${path}|`, depth);
}

/** Each sub-schema's `required` names only properties it has (every client reads it so). */
const requiredDeclared = (s: Schema) => ((s.required ?? []) as string[]).every((r) => r in (s.properties ?? {}));

/**
 * Claude (Anthropic Messages API `tools[].input_schema`, and MCP's Tool.inputSchema): a JSON
 * Schema (draft 2020-12) object; the API refuses the whole tool list when one schema has
 * anything but type, properties, required and additionalProperties at its top level (anyOf,
 * oneOf, allOf…); tool names match ^[a-zA-Z0-9_-]{1,64}$.
 */
function claudeProblems(tool: Tool): string[] {
  const problems: string[] = [];
  const top = Object.keys(tool.inputSchema).filter((k) => !['type', 'properties', 'required', 'additionalProperties'].includes(k));
  if (top.length) problems.push(`top-level keys ${top.join(', ')}`);
  if (tool.inputSchema.type !== 'object') problems.push('top level is not type object');
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) problems.push('name');
  problems.push(...jsonSchemaProblems(tool.inputSchema));
  return problems;
}

/**
 * OpenAI function calling, non-strict (`tools[].function`): name ^[a-zA-Z0-9_-]{1,64}$;
 * `parameters` is a JSON Schema whose top level is `type: "object"` and carries no anyOf,
 * oneOf, allOf, enum or not (refused with "schema must be a JSON Schema of 'type: object'").
 * Without `strict`, any other JSON Schema keyword is accepted.
 */
function openAiProblems(tool: Tool): string[] {
  const problems: string[] = [];
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) problems.push('name');
  if (tool.inputSchema.type !== 'object') problems.push('top level is not type object');
  for (const k of ['anyOf', 'oneOf', 'allOf', 'enum', 'not']) if (k in tool.inputSchema) problems.push(`top-level ${k}`);
  problems.push(...jsonSchemaProblems(tool.inputSchema));
  return problems;
}

/**
 * Gemini (`functionDeclarations[].parameters`, a Schema: "a select subset of an OpenAPI 3.0
 * schema object", per the Gemini API reference for Schema and FunctionDeclaration). Fields:
 * type, format, title, description, nullable, enum, maxItems, minItems, properties,
 * required, minProperties, maxProperties, minLength, maxLength, pattern, example, anyOf,
 * propertyOrdering, default, items, minimum, maximum; anything else (additionalProperties,
 * multipleOf, oneOf, $ref…) is refused. `type` is one name (STRING, NUMBER, INTEGER, BOOLEAN,
 * ARRAY, OBJECT, NULL; clients send it in either case), never an array; `enum` lists strings
 * of a STRING; an OBJECT below the top level needs at least one property (a function with no
 * parameters leaves them unset, which clients do for an empty top level). Names start with a
 * letter or underscore, then letters, digits, underscores, dots, colons or dashes, at most 64.
 */
const GEMINI_FIELDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);
const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
function geminiProblems(tool: Tool): string[] {
  const problems: string[] = [];
  if (!/^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/.test(tool.name)) problems.push('name');
  for (const [s, path, depth] of walk(tool.inputSchema, tool.name)) {
    for (const k of Object.keys(s)) if (!GEMINI_FIELDS.has(k)) problems.push(`${path}: ${k}`);
    if (s.type !== undefined && (typeof s.type !== 'string' || !GEMINI_TYPES.has(s.type.toLowerCase())))
      problems.push(`${path}: type ${JSON.stringify(s.type)}`);
    if (s.type === undefined && !s.anyOf) problems.push(`${path}: no type`);
    if (s.enum && (s.type !== 'string' || !s.enum.every((v: unknown) => typeof v === 'string'))) problems.push(`${path}: enum of a non-string`);
    if (s.type === 'object' && depth > 0 && Object.keys(s.properties ?? {}).length === 0) problems.push(`${path}: object without properties`);
    if (!requiredDeclared(s)) problems.push(`${path}: required names a missing property`);
  }
  return problems;
}

/** Valid JSON Schema 2020-12 with no keyword Ajv's strict mode does not know (OpenAPI's `nullable`, say). */
function jsonSchemaProblems(schema: Schema): string[] {
  try {
    new Ajv2020({ strict: true, strictRequired: true, allowUnionTypes: false }).compile(schema);
    return [];
  } catch (e) {
    return [(e as Error).message];
  }
}

async function toolsOf(host: 'pro' | 'book'): Promise<Tool[]> {
  const auth = host === 'pro' ? (await newCleaner(h)).auth : asPublic;
  const res = await h[host].post('/mcp').set(auth).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(200);
  return res.body.result.tools as Tool[];
}

describe('published tool input schemas', () => {
  it.each([
    ['Claude', claudeProblems],
    ['OpenAI (non-strict)', openAiProblems],
    ['Gemini', geminiProblems],
  ] as const)('load in %s on both hosts', async (_client, problemsOf) => {
    for (const host of ['pro', 'book'] as const) {
      const tools = await toolsOf(host);
      expect(tools.length).toBe(ALL_OPERATIONS[host].length);
      for (const tool of tools) expect([host, tool.name, problemsOf(tool)]).toEqual([host, tool.name, []]);
    }
  });

  it('publish a field that takes null as anyOf of its type and null, which every client reads', async () => {
    const tools = Object.fromEntries((await toolsOf('pro')).map((t) => [t.name, t]));
    expect(tools.update_business!.inputSchema.properties.phone).toEqual({ description: 'null removes it.', anyOf: [{ type: 'string' }, { type: 'null' }] });
  });

  it('state in words each format whose pattern was left out', async () => {
    for (const host of ['pro', 'book'] as const) {
      const doc = (await h[host].get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, any>> };
      const tools = Object.fromEntries((await toolsOf(host)).map((t) => [t.name, t]));
      for (const [path, methods] of Object.entries(doc.paths).filter(([p]) => p.startsWith('/api/v1/'))) {
        const name = path.slice('/api/v1/'.length);
        const [entry] = Object.values(methods);
        const fields: [string, Schema][] = entry.parameters
          ? entry.parameters.map((p: Schema) => [p.name, p.schema])
          : Object.entries(entry.requestBody.content['application/json'].schema.properties);
        for (const [field, schema] of fields) {
          // The text rules (one line; no control characters) are no format to follow: nothing an
          // assistant means to send breaks them, and the refusal names the field.
          const formats = JSON.stringify(schema, (key, value: unknown) =>
            key === 'pattern' && typeof value === 'string' && TEXT_RULE_BOUNDS[value] ? undefined : value,
          );
          if (!formats.includes('"pattern"')) continue;
          const published = tools[name]!.inputSchema.properties[field];
          expect([name, field, typeof published.description]).toEqual([name, field, 'string']);
        }
      }
    }
  });
});

describe('the server, judging by the whole schema', () => {
  const job = { bedrooms: 2, start: '2026-11-25T09:00:00-05:00', customer_name: 'Dana', customer_phone: '5550100', address: '1 Main St', zip: '10001' };

  it('refuses a rule the published schema left out, over MCP and REST alike, naming the field', async () => {
    const { auth } = await newCleaner(h);
    const tools = Object.fromEntries((await toolsOf('pro')).map((t) => [t.name, t]));
    expect(tools.book_job!.inputSchema.properties.bathrooms).not.toHaveProperty('multipleOf');
    expect(tools.book_job!.inputSchema.properties.zip).not.toHaveProperty('pattern');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...job, bathrooms: 2.3 }, /bathrooms/],
      [{ ...job, bathrooms: 2, zip: 'abcde' }, /zip/],
      [{ ...job, bathrooms: 2, notes: 'x'.repeat(501) }, /notes/],
    ];
    for (const [input, field] of cases) {
      const rest = await h.pro.post('/api/v1/book_job').set(auth).send(input);
      expect(rest.status).toBe(400);
      expect(rest.body.error).toMatch(field);
      const mcp = await h.pro
        .post('/mcp')
        .set(auth)
        .send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'book_job', arguments: input } })
        .expect(200);
      expect(mcp.body.result.isError).toBe(true);
      expect(mcp.body.result.structuredContent?.error ?? mcp.body.result.content[0].text).toBe(rest.body.error);
    }
  });

  it("keeps REST's /openapi.json whole", async () => {
    const doc = (await h.pro.get('/openapi.json').expect(200)).body;
    const body = doc.paths['/api/v1/book_job'].post.requestBody.content['application/json'].schema;
    expect(body.properties.bathrooms.multipleOf).toBe(0.5);
    expect(body.properties.zip.pattern).toBe('^[0-9]{5}$');
    expect(body.additionalProperties).toBe(false);
  });
});
