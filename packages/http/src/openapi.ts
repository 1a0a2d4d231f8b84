import { IDEMPOTENCY_HEADER_TEXT, singleLine } from '@frontdesk/domain';
import type { JsonSchema, Operation } from './operation';

export interface OpenApiOptions {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
  operations: readonly Operation<unknown>[];
  /** Headers every operation of this host reads (beyond X-Client-Name). */
  headerParameters?: JsonSchema[];
  /** The host's OAuth 2.0 server, if it has one: each operation then names its scope. */
  oauth?: { authorizationUrl: string; tokenUrl: string; scopes: Record<string, string> };
  /** An example answer per operation name, shown with its 200 response. */
  examples?: Record<string, unknown>;
  /** An example body per write, shown with its request (each valid against the operation's input). */
  requestExamples?: Record<string, unknown>;
  /** The host's areas, in the order a reader meets them: each operation is listed under the one its definition names. */
  tags?: readonly ApiTag[];
  /** Under what terms the interface may be used; /docs states them under #terms. */
  license?: { name: string };
}

/** An area of a host's operations (the bookings, the leads): an OpenAPI tag. */
export interface ApiTag {
  name: string;
  description: string;
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

export const CLIENT_NAME_PARAMETER = {
  name: 'X-Client-Name',
  in: 'header',
  required: false,
  description: 'The assistant making the call; bookings show it.',
  schema: singleLine({ maxLength: 100 }),
} as const;

/**
 * A write's retry key (every operation that is not read-only takes one; a read ignores it):
 * the same key and body within the keeping window gives the first answer again, with
 * `Idempotent-Replayed: true`. The rule itself (1 to 255 printable characters, no spaces) is
 * judged by the service, in its own words, so the schema says only that it is text.
 */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: IDEMPOTENCY_HEADER_TEXT,
  schema: { type: 'string' },
} as const;

const IDEMPOTENT_REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    description: 'Present, as `true`, when this answer is the stored answer of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

/**
 * Reads send each input property as a query parameter; lists comma-separated. Every one is
 * `allowReserved`: a time as a person types it (`start_after=10:00`, a start with its offset)
 * is read as meant, unencoded.
 */
function queryParameters(op: Operation<unknown>): JsonSchema[] {
  const required = new Set(op.input.required ?? []);
  return Object.entries(op.input.properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(schema.description ? { description: schema.description } : {}),
    schema,
    ...(schema.type === 'array' ? { style: 'form', explode: false } : {}),
    allowReserved: true,
  }));
}

/** Every answer an operation may give: its own on 200, and the errors every operation shares. */
function responsesOf(op: Operation<unknown>, opts: OpenApiOptions): JsonSchema {
  return {
    '200': {
      description: 'Success',
      ...(op.readOnly ? {} : { headers: IDEMPOTENT_REPLAYED_HEADER }),
      content: { 'application/json': { schema: op.output, ...(opts.examples?.[op.name] ? { example: opts.examples[op.name] } : {}) } },
    },
    '400': errorResponse('Invalid input, or the action was refused; the error says why.'),
    '401': errorResponse('Missing or invalid key.'),
    ...(opts.oauth && op.scope ? { '403': errorResponse(`The access token lacks the ${op.scope} scope.`) } : {}),
    '404': errorResponse('Unknown id or token.'),
    ...(op.method === 'POST'
      ? {
          '413': errorResponse('The body is larger than 64 KB.'),
          '415': errorResponse('The body is not JSON (Content-Type: application/json).'),
        }
      : {}),
    '429': {
      ...errorResponse(
        `Too many ${op.readOnly ? 'reads' : 'writes'} by this credential (or, for the shared public key, from this address), or too many keys that matched nothing from this address. Retry after the Retry-After seconds; the RateLimit and RateLimit-Policy headers give the budget.`,
      ),
      headers: {
        'Retry-After': { description: 'Seconds until the limit resets.', schema: { type: 'integer' } },
        RateLimit: { description: 'The remaining budget and seconds to reset (IETF RateLimit fields).', schema: { type: 'string' } },
        'RateLimit-Policy': { description: 'The limit and its window in seconds.', schema: { type: 'string' } },
      },
    },
    '503': errorResponse('The database is unavailable for a moment; retry after the Retry-After seconds. Nothing was changed.'),
  };
}

/** One operation's path entry. */
function entryOf(op: Operation<unknown>, opts: OpenApiOptions): JsonSchema {
  const tags = (opts.tags ?? []).filter((t) => t.name === op.tag).map((t) => t.name);
  const example = opts.requestExamples?.[op.name];
  return {
    operationId: op.name,
    ...(tags.length ? { tags } : {}),
    summary: op.title,
    description: op.description,
    parameters: [
      CLIENT_NAME_PARAMETER,
      ...(op.readOnly ? [] : [IDEMPOTENCY_KEY_PARAMETER]),
      ...(opts.headerParameters ?? []),
      ...(op.method === 'GET' ? queryParameters(op) : []),
    ],
    responses: responsesOf(op, opts),
    ...(opts.oauth && op.scope ? { security: [{ bearer: [] }, { oauth2: [op.scope] }] } : {}),
    ...(op.scope ? { 'x-scope': op.scope } : {}),
    ...(op.method === 'POST'
      ? { requestBody: { required: true, content: { 'application/json': { schema: op.input, ...(example === undefined ? {} : { example }) } } } }
      : {}),
  };
}

/** The ways a caller authenticates: a bearer key, and the host's OAuth 2.0 server if it has one. */
const securitySchemesOf = (oauth: OpenApiOptions['oauth']) => ({
  bearer: { type: 'http', scheme: 'bearer' },
  ...(oauth
    ? {
        oauth2: {
          type: 'oauth2',
          flows: {
            authorizationCode: { authorizationUrl: oauth.authorizationUrl, tokenUrl: oauth.tokenUrl, refreshUrl: oauth.tokenUrl, scopes: oauth.scopes },
          },
        },
      }
    : {}),
});

/** The OpenAPI 3.0 document, generated from the operation definitions. */
export function buildOpenApiDocument(opts: OpenApiOptions): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const op of opts.operations) paths[`/api/v1/${op.name}`] = { [op.method.toLowerCase()]: entryOf(op, opts) };
  return {
    openapi: '3.0.3',
    info: {
      title: opts.title,
      version: opts.version,
      description: opts.description,
      // Whom to ask: the host's own front page, which says who runs it and how to reach them.
      contact: { name: opts.title, url: `${opts.serverUrl}/` },
      ...(opts.license ? { license: { name: opts.license.name, url: `${opts.serverUrl}/docs#terms` } } : {}),
    },
    servers: [{ url: opts.serverUrl }],
    ...(opts.tags ? { tags: opts.tags.map((t) => ({ name: t.name, description: t.description })) } : {}),
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: securitySchemesOf(opts.oauth),
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: { error: { type: 'string', description: 'A sentence a person can act on.' } },
        },
      },
    },
  };
}
