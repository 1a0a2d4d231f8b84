import type { JsonSchema } from './operation';

/**
 * What a tool publishes of its input schema: the part every client we know loads, at a size
 * a model can afford on every turn. The operation's own schema stays the judge of every call
 * (Ajv over MCP and the pages, the OpenAPI validator over REST; /openapi.json publishes it
 * whole): a rule left out here is still enforced, with the same refusal naming the field, and
 * where an assistant needs the rule to call right, the field's description says it in words.
 *
 * Left out because a client refuses it (test-e2e/tool-schemas.test.ts encodes each client's
 * documented rules):
 * - `additionalProperties`, at every level: Gemini's function `parameters` has no such field;
 * - `multipleOf` (half bathrooms, five-minute steps): not in Gemini's subset either;
 * - OpenAPI's `nullable` (JSON Schema readers ignore it) and type arrays such as
 *   ["string", "null"] (Gemini refuses them): a field that takes null is published as `anyOf`
 *   of its type and `{type: "null"}`, which all three read.
 * Left out for size, since no assistant means to break them and the refusal is clear:
 * - `pattern` (each patterned field states its format in its description), `minLength` and
 *   `maxLength`;
 * - the bounds of nested fields (inside an object or array field: prices, weekday windows,
 *   add-ons); a top-level field keeps its minimum, maximum and item counts;
 * - the repetition of an object whose four or more properties share one shape (the seven
 *   weekdays of working hours, the clean types): its first property is published, and its
 *   description names the others as the same (Gemini wants an object to show at least one).
 */
export function publishedSchema(schema: JsonSchema): JsonSchema {
  return publish(schema, 0);
}

const DROPPED = new Set(['additionalProperties', 'multipleOf', 'pattern', 'minLength', 'maxLength', 'nullable']);
const BOUNDS = new Set(['minimum', 'maximum', 'minItems', 'maxItems', 'minProperties', 'maxProperties']);

/** depth: 0 for the input object, 1 for its fields, 2 and more inside a field. */
function publish(schema: JsonSchema, depth: number): JsonSchema {
  const folded = depth >= 1 ? foldUniform(schema, depth) : undefined;
  if (folded) return folded;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || (depth >= 2 && BOUNDS.has(key))) continue;
    if (key === 'properties') out[key] = mapValues(value as Record<string, JsonSchema>, (s) => publish(s, depth + 1));
    else if (key === 'items') out[key] = publish(value as JsonSchema, depth + 1);
    else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf') out[key] = (value as JsonSchema[]).map((s) => publish(s, depth));
    else out[key] = value;
  }
  if (schema.nullable !== true) return out;
  const { description, ...typed } = out;
  const withoutNull = Array.isArray(typed.enum) ? { enum: (typed.enum as unknown[]).filter((v) => v !== null) } : {};
  return { ...(description === undefined ? {} : { description }), anyOf: [{ ...typed, ...withoutNull }, { type: 'null' }] };
}

/** An object of four or more properties of one published shape, shown by its first; undefined otherwise. */
function foldUniform(schema: JsonSchema, depth: number): JsonSchema | undefined {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (schema.type !== 'object' || !properties || Object.keys(properties).length < 4) return undefined;
  const shapes = Object.values(properties).map((p) => publish(p, depth + 1));
  if (new Set(shapes.map((p) => JSON.stringify(p))).size !== 1) return undefined;
  const [first, ...others] = Object.keys(properties);
  const said = typeof schema.description === 'string' ? `${schema.description} ` : '';
  // Seven weekdays read as a run; a shorter list is named in full.
  const rest = others.length > 4 ? `${others[0]} … ${others.at(-1)}` : others.join(', ');
  return { type: 'object', properties: { [first!]: shapes[0]! }, description: `${said}Also ${rest}, each as ${first}.` };
}

function mapValues<T, U>(record: Record<string, T>, f: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}
