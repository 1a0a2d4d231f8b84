import type { NextFunction, Request, RequestHandler, Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { InvalidInputError } from '@frontdesk/domain';
import { patternOf, screenInput } from './input';
import type { JsonSchema, Operation } from './operation';
import { describeValidationErrors } from './validation-messages';

/**
 * REST requests are judged by express-openapi-validator against the published /openapi.json,
 * configured to judge exactly as MCP's Ajv judge does (input.ts):
 * - bodies are never coerced (`coerceTypes: false`): `true` is not 1, `null` not 0, "2" not 2;
 * - the query is read by inputFromQuery before the validator sees it (strictly typed values;
 *   unknown, repeated and nested keys already refused in our words), so its own pass over the
 *   keys is off (`allowUnknownQueryParameters`), and every query parameter is `allowReserved`
 *   in the document, so `start_after=10:00` passes unencoded;
 * - no formats (`validateFormats: false`): MCP's judge knows none either;
 * - security is the host's `authenticate`; answers are checked by checkAnswer on every transport.
 * The validator finds a request's route by compiling each documented path anew, on every
 * request (most of its cost); once it has found an operation's route, later requests are
 * handed that and the search is skipped for them (`ignorePaths`).
 */
function validatorOf(document: JsonSchema, found: Map<string, unknown>): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: document as never,
    // The document is generated (buildOpenApiDocument); packages/http/test checks it against the OpenAPI schema.
    validateApiSpec: false,
    validateRequests: { coerceTypes: false, allowUnknownQueryParameters: true, removeAdditional: false, allErrors: false },
    validateResponses: false,
    validateSecurity: false,
    validateFormats: false,
    fileUploader: false,
    ignorePaths: (path: string) => found.has(path),
  });
}

/**
 * A query value our reader left as text where the schema wants a number or true/false: the
 * validator always coerces parameters ("1e3" would pass as 1000, "Infinity" as Infinity), so
 * it gets something no coercion reads, and refuses it for its type as MCP's judge refuses the text.
 */
const TYPED = new Set(['integer', 'number', 'boolean']);
function uncoercible(value: unknown, schema: JsonSchema | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => uncoercible(item, schema?.items as JsonSchema | undefined));
  return typeof value === 'string' && TYPED.has(schema?.type as string) ? { text: value } : value;
}

/**
 * What the validator is shown of a request: the query as read, a copy of the body (the
 * validator fills in schema defaults, which the handler's input must not gain on one
 * transport only), as JSON (the body parser has settled its type already), at the
 * operation's own route. The validator writes on what it is given (openapi, params, the
 * query), so it gets a plain object of what it reads, never the request itself (and not the
 * request as a prototype: that would slow every later access to it).
 */
interface View {
  path: string;
  /** Where the validator keeps the route it found. */
  openapi?: unknown;
}

function viewOf(req: Request, op: Operation<unknown>, input: Record<string, unknown>, found: Map<string, unknown>): View {
  const query: Record<string, unknown> = {};
  if (op.method === 'GET') for (const [key, value] of Object.entries(input)) query[key] = uncoercible(value, op.input.properties[key]);
  const route = `/api/v1/${op.name}`;
  const view = {
    app: req.app,
    method: req.method,
    path: route,
    baseUrl: '',
    originalUrl: route,
    headers: { ...req.headers, 'content-type': 'application/json' },
    query,
    body: op.method === 'GET' ? undefined : structuredClone(input),
    params: {},
    // The route as the validator found it for an earlier request of this operation.
    openapi: found.get(route),
  };
  return view;
}

/** The validator's 400 in our words, the sentence MCP's judge gives for the same input; any other error as it is. */
function inOurWords(err: unknown, op: Operation<unknown>): unknown {
  if (!(err instanceof OpenApiValidator.error.BadRequest)) return err;
  return new InvalidInputError(describeValidationErrors(err.errors, patternOf(op)));
}

/**
 * The REST judges of one host: for each operation, a handler that screens its input
 * (res.locals.input, read by the router) for what no schema catches, then has the validator
 * judge it. One validator serves every operation, made at the first request.
 */
export function restJudges(document: JsonSchema): (op: Operation<unknown>) => RequestHandler {
  const found = new Map<string, unknown>();
  let chain: RequestHandler[] | undefined;
  return (op) => (req: Request, res: Response, next: NextFunction) => {
    const input: unknown = res.locals.input;
    screenInput(input);
    chain ??= validatorOf(document, found);
    const view = viewOf(req, op, input, found);
    const step = (i: number) => (err?: unknown) => {
      if (!found.has(view.path) && view.openapi) found.set(view.path, view.openapi);
      if (err) return next(inOurWords(err, op));
      if (i === chain!.length) return next();
      void chain![i]!(view as unknown as Request, res, step(i + 1));
    };
    step(0)();
  };
}
