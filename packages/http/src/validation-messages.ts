import { ADD_ON_NAME_PATTERN, MULTI_LINE_PATTERN, MULTI_LINE_TEXT, ONE_LINE_TEXT, SINGLE_LINE_PATTERN, WINDOW_PATTERN } from '@frontdesk/domain';

/**
 * Turns a validator's structured errors into one plain sentence per problem, naming the field
 * and the bound: "bedrooms must be at most 10." rather than "request/query/bedrooms must be <= 10".
 * Each sentence is made from the rule that failed, the place, and the rule's own values; the
 * validators' English is never read.
 */
export interface SchemaProblem {
  /** The schema keyword that failed (Ajv's `keyword`): `maximum`, `required`, `pattern`… */
  keyword: string;
  /**
   * The place, as both validators write it: a JSON Pointer under the part of the request
   * (`/body/items/1/n`, `/query/count`, `/headers/x-user-name`), ending in the field's own
   * name for `required` and `additionalProperties`.
   */
  path: string;
  /**
   * The rule's values, in Ajv's names: `limit` for every bound, `type`, `allowedValues`,
   * `pattern`, `multipleOf` (what Ajv's `params` holds).
   */
  params: Readonly<Record<string, unknown>>;
}

const PATTERN_HINTS: Record<string, string> = {
  '^[0-9]{5}$': 'exactly 5 digits, like 10001',
  '^([01][0-9]|2[0-3]):[0-5][0-9]$': 'a 24-hour local time HH:MM, like 09:30',
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}$': 'a date YYYY-MM-DD, like 2026-11-24',
  '^[0-9]{4}-(0[1-9]|1[0-2])$': 'a month YYYY-MM, like 2026-11',
  [WINDOW_PATTERN]: 'a working window "HH:MM-HH:MM" (24-hour), like 08:00-17:00',
  [ADD_ON_NAME_PATTERN]: 'lower case letters, digits and _, starting with a letter, like inside_fridge',
  [SINGLE_LINE_PATTERN]: ONE_LINE_TEXT,
  [MULTI_LINE_PATTERN]: MULTI_LINE_TEXT,
};

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  string: 'text',
  array: 'a list',
  object: 'an object',
};

function fieldOf(path: string): string {
  const stripped = path.replace(/^\/(query|body|headers|params|cookies)/, '').replace(/^\//, '');
  if (!stripped) return path.startsWith('/body') ? 'the body' : 'the request';
  return stripped.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.');
}

/** A rule's value as the sentence writes it: numbers as JavaScript writes them, lists comma-separated, null as nothing. */
function said(value: unknown): string {
  if (Array.isArray(value)) return value.map(said).join(', ');
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

/** The first type a rule names (a type list, such as ["string", "null"], is named by its first). */
const typeOf = (type: unknown): string => said(Array.isArray(type) ? type[0] : type);

/** The sentence for each keyword, from the field and the rule's values. */
const SENTENCES: Readonly<Record<string, (field: string, params: SchemaProblem['params']) => string>> = {
  required: (field) => `${field} is required.`,
  additionalProperties: (field) => `${field} is not a field of this operation.`,
  maximum: (field, { limit }) => `${field} must be at most ${said(limit)}.`,
  minimum: (field, { limit }) => `${field} must be at least ${said(limit)}.`,
  exclusiveMaximum: (field, { limit }) => `${field} must be less than ${said(limit)}.`,
  exclusiveMinimum: (field, { limit }) => `${field} must be more than ${said(limit)}.`,
  maxLength: (field, { limit }) => `${field} must be at most ${said(limit)} characters long.`,
  minLength: (field, { limit }) => (limit === 1 ? `${field} must not be empty.` : `${field} must be at least ${said(limit)} characters long.`),
  minProperties: (field, { limit }) => `${field} must name at least ${said(limit)}.`,
  maxItems: (field, { limit }) => `${field} may have at most ${said(limit)} items.`,
  minItems: (field, { limit }) => `${field} must have at least ${said(limit)} items.`,
  multipleOf: (field, { multipleOf }) =>
    multipleOf === 0.5 ? `${field} must be a whole or half number, like 2 or 2.5.` : `${field} must be a multiple of ${said(multipleOf)}.`,
  type: (field, { type }) => `${field} must be ${TYPE_WORDS[typeOf(type)] ?? typeOf(type)}.`,
  enum: (field, { allowedValues }) => `${field} must be one of: ${said(allowedValues)}.`,
  pattern: (field, { pattern }) => `${field} must be ${PATTERN_HINTS[said(pattern)] ?? `in the form ${said(pattern)}`}.`,
};

/** The keywords a sentence is written for: an operation's input schema keeps to these (a test holds it). */
export const KEYWORDS_WITH_SENTENCES: ReadonlySet<string> = new Set(Object.keys(SENTENCES));

/** The rule's values in Ajv's names, read from the schema that holds the rule (for a validator whose errors carry none). */
export function paramsOf(keyword: string, schema: Readonly<Record<string, unknown>>): SchemaProblem['params'] {
  switch (keyword) {
    case 'type':
      return { type: schema.type };
    case 'enum':
      return { allowedValues: schema.enum };
    case 'pattern':
      return { pattern: schema.pattern };
    case 'multipleOf':
      return { multipleOf: schema.multipleOf };
    case 'required':
    case 'additionalProperties':
      return {};
    default:
      return { limit: schema[keyword] };
  }
}

function sentence({ keyword, path, params }: SchemaProblem): string {
  const field = fieldOf(path);
  const say = Object.hasOwn(SENTENCES, keyword) ? SENTENCES[keyword] : undefined;
  // A keyword no sentence is written for: no operation's input uses one (a test holds it).
  return say ? say(field, params) : `${field} is not valid.`;
}

/** One sentence for all problems found, each said once. */
export function describeValidationErrors(problems: readonly SchemaProblem[]): string {
  return [...new Set(problems.map(sentence))].join(' ');
}
