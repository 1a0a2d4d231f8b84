import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { inputTooDeep, notAParameter, notAnInputObject, parameterRepeated } from '@frontdesk/domain';
import { InvalidInputError } from '@frontdesk/domain';
import type { Static } from '@sinclair/typebox';
import type { JsonSchema, ObjectSchema, Operation } from './operation';
import { describeValidationErrors, type SchemaProblem } from './validation-messages';

/**
 * How an operation's input is read and judged. A JSON body and MCP arguments are taken as
 * they are: nothing is coerced, so `true` is never 1 and `null` is never 0. A query string
 * is text by nature: each value is read as the type its schema names (digits as a number,
 * true/false as a boolean, commas as a list), strictly, and then judged by the same schema.
 * REST requests are judged by express-openapi-validator against /openapi.json (rest-judge.ts),
 * MCP arguments and the pages' inputs by Ajv here; the fuzz test holds them to the same verdicts.
 */
const ajv = new Ajv({ allErrors: false, strict: false, strictNumbers: true, coerceTypes: false, useDefaults: false });
const compiled = new WeakMap<ObjectSchema, ValidateFunction>();

function validatorOf(schema: ObjectSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  return validate;
}

/**
 * Ajv's errors as the problems the sentences are made from: its keyword and params as they
 * are, its place written as the REST validator writes it (under /body, ending in the field a
 * `required` or `additionalProperties` error names), so a field is named alike on every transport.
 */
function problemsOf(errors: readonly ErrorObject[]): SchemaProblem[] {
  return errors.map(({ keyword, instancePath, params }) => {
    const { missingProperty, additionalProperty } = params as { missingProperty?: string; additionalProperty?: string };
    const leaf = missingProperty ?? additionalProperty;
    return { keyword, path: `/body${instancePath}${leaf ? `/${leaf}` : ''}`, params };
  });
}

// A NUL byte, or half of a UTF-16 surrogate pair: PostgreSQL cannot store either in text or jsonb.
// eslint-disable-next-line no-control-regex -- matching the NUL byte is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A name for a place in the input, as the sentences write it: `add_ons[2]`, `the body`. */
const place = (path: string) => path || 'the input';

/**
 * How deep an input may nest (the input object is level 1). The deepest schema is four
 * levels (update_business's prices); anything far deeper is refused before any judge walks it.
 */
export const MAX_INPUT_DEPTH = 32;

/**
 * Finds what no schema keyword catches: text PostgreSQL cannot store, numbers that are not
 * finite, nesting deeper than MAX_INPUT_DEPTH. It walks with a list of its own, never the
 * call stack, so `[` fifteen thousand times deep is a sentence, not a stack overflow.
 */
const UNSTORABLE_KEY = Symbol('a field name that cannot be stored');
function hostileValue(input: unknown): string | null {
  // Depth first, in the order the fields were sent: the first hostile place is the one named.
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: input, path: '', depth: 1 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, path, depth } = next;
    if (value === UNSTORABLE_KEY) return `${place(path)} has a field name that cannot be stored.`;
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return `${place(path)} contains a character that cannot be stored (a NUL byte or a broken UTF-16 surrogate).`;
      continue;
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return `${place(path)} must be a finite number.`;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_INPUT_DEPTH) return inputTooDeep(MAX_INPUT_DEPTH);
    const children: { value: unknown; path: string; depth: number }[] = [];
    if (Array.isArray(value)) {
      value.forEach((item, i) => children.push({ value: item, path: `${path}[${i}]`, depth: depth + 1 }));
    } else {
      for (const [key, item] of Object.entries(value)) {
        // A field name that cannot be stored is named when the walk reaches it, as its value would be.
        if (UNSTORABLE.test(key)) children.push({ value: UNSTORABLE_KEY, path, depth });
        else children.push({ value: item, path: path ? `${path}.${key}` : key, depth: depth + 1 });
      }
    }
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i]!);
  }
  return null;
}

/**
 * The input of nearly every call: fields whose values are text, finite numbers, true/false, null
 * or lists of those, with nothing hostileValue would name. Checked without building the places
 * hostileValue names (a text for each field and item), which only a refusal needs.
 */
function isPlain(input: object): boolean {
  for (const key in input) {
    if (!Object.hasOwn(input, key) || UNSTORABLE.test(key)) return false;
    const value = (input as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const item of value) if (!plainScalar(item)) return false;
    } else if (!plainScalar(value)) return false;
  }
  return true;
}

const plainScalar = (value: unknown): boolean =>
  typeof value === 'string' ? !UNSTORABLE.test(value) : typeof value === 'number' ? Number.isFinite(value) : typeof value !== 'object' || value === null;

/**
 * What every judge needs first, and no schema keyword catches: an object of fields, with no
 * text PostgreSQL cannot store and no number that is not finite. Throws a 400 naming the place.
 */
export function screenInput(input: unknown): asserts input is Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw notAnInputObject();
  }
  if (isPlain(input)) return;
  const hostile = hostileValue(input);
  if (hostile) throw new InvalidInputError(hostile);
}

/**
 * The MCP judge (and the pages'): the operation's input schema, compiled once with Ajv.
 * Throws a 400 whose sentence names the field, the same sentence the REST validator's
 * errors are turned into.
 */
export function validateInput<In extends ObjectSchema>(op: { input: In }, input: unknown): Static<In> {
  screenInput(input);
  const validate = validatorOf(op.input);
  if (!validate(input)) throw new InvalidInputError(describeValidationErrors(problemsOf(validate.errors ?? [])));
  return input;
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/** One query value read as its schema's type; anything that does not read cleanly stays text for the schema to refuse. */
function fromText(text: string, schema: JsonSchema): unknown {
  switch (schema.type) {
    case 'integer':
    case 'number':
      return NUMBER.test(text) && Number.isFinite(Number(text)) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'array': {
      const items = (schema.items ?? {}) as JsonSchema;
      return text === '' ? [] : text.split(',').map((part) => fromText(part.trim(), items));
    }
    default:
      return text;
  }
}

/**
 * A parsed query string as operation input. Every key must be a field, given once;
 * `add_ons[a]=1` is not the field `add_ons`, and a repeated key is refused rather than guessed.
 */
export function inputFromQuery(op: Pick<Operation<unknown>, 'input'>, query: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    const schema = Object.hasOwn(op.input.properties, key) ? op.input.properties[key] : undefined;
    if (!schema) throw notAParameter(key);
    if (typeof raw !== 'string') throw parameterRepeated(key);
    input[key] = fromText(raw, schema);
  }
  return input;
}
