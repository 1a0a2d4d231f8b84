import type { NextFunction, Request, RequestHandler, Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { InvalidInputError } from '@frontdesk/domain';
import { headerText } from './auth';
import { screenInput } from './input';
import type { JsonSchema, Operation } from './operation';
import { describeValidationErrors, paramsOf, type SchemaProblem } from './validation-messages';

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
 */
interface Validator {
  /** The validator's whole chain: finds the request's route in the document, then judges it. */
  all: RequestHandler[];
  /** Its last step alone, which judges a request whose route it has found already. */
  judge: RequestHandler[];
}

/**
 * The validator finds a request's route by compiling every documented path anew, on every
 * request, then takes steps (path parameters, security) these routes do not have: most of its
 * cost. Express has routed the request already, so once the validator has found an
 * operation's route, later requests of it are handed that route and go to its request
 * validation alone (or, should a later version name that step otherwise, through the whole
 * chain, told to skip the search: `ignorePaths`).
 */
function validatorOf(document: JsonSchema, found: Map<string, unknown>): Validator {
  const all = OpenApiValidator.middleware({
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
  const requests = all.filter((step) => step.name === 'requestMiddleware');
  return { all, judge: requests.length === 1 ? requests : all };
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

interface View {
  /** Where the validator keeps the route it found. */
  openapi?: unknown;
}

/** The headers an operation documents, by name in lower case (as Node gives them): all the validator reads of them. */
function documentedHeaders(document: JsonSchema, op: Operation<unknown>): Record<string, JsonSchema> {
  const entry = (document.paths as Record<string, Record<string, { parameters?: { in: string; name: string; schema: JsonSchema }[] }>>)[`/api/v1/${op.name}`];
  const parameters = entry?.[op.method.toLowerCase()]?.parameters ?? [];
  return Object.fromEntries(parameters.filter((p) => p.in === 'header').map((p) => [p.name.toLowerCase(), p.schema]));
}

interface Shown {
  op: Operation<unknown>;
  input: Record<string, unknown>;
  headers: readonly string[];
  /** The route as the validator found it for an earlier request, if it has. */
  openapi: unknown;
}

/**
 * What the validator is shown of a request: the query as read, a copy of the body (the
 * validator fills in schema defaults, which the handler's input must not gain on one
 * transport only), as JSON (the body parser has settled its type already; a read has no
 * body and is shown no type), with the headers the operation documents, at the operation's
 * own route. The validator writes on what it is given (openapi, params, the query), so it
 * gets a plain object of what it reads, never the request itself (and not the request as a
 * prototype: that would slow every later access to it).
 */
function viewOf(req: Request, { op, input, headers, openapi }: Shown): View {
  const query: Record<string, unknown> = {};
  if (op.method === 'GET') for (const key of Object.keys(input)) query[key] = uncoercible(input[key], op.input.properties[key]);
  // A read has no body, so no type to parse (the validator would, on every request); a write's body is JSON.
  const shownHeaders: Record<string, unknown> = op.method === 'GET' ? {} : { 'content-type': 'application/json' };
  // Each as the text it means (headerText), as the host's own check of the header read it.
  for (const name of headers) if (req.headers[name] !== undefined) shownHeaders[name] = headerText(req, name);
  const route = `/api/v1/${op.name}`;
  return {
    app: req.app,
    method: req.method,
    path: route,
    baseUrl: '',
    originalUrl: route,
    headers: shownHeaders,
    query,
    body: op.method === 'GET' ? undefined : structuredClone(input),
    params: {},
    openapi,
  } as View;
}

/**
 * The schema a validator's error is about, found by following its place down from what the
 * validator judged there: the operation's input for the body and the query (each query
 * parameter's schema is the input's property), a documented header's own schema.
 */
function schemaAt(path: string, op: Operation<unknown>, headers: Readonly<Record<string, JsonSchema>>): JsonSchema | undefined {
  const [, part, ...steps] = path.split('/');
  let schema: JsonSchema | undefined = part === 'body' || part === 'query' ? op.input : part === 'headers' ? { properties: headers } : undefined;
  for (const step of steps.map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))) {
    if (schema?.type === 'array') schema = schema.items as JsonSchema | undefined;
    else if (schema?.properties && Object.hasOwn(schema.properties, step)) schema = (schema.properties as Record<string, JsonSchema>)[step];
    else schema = typeof schema?.additionalProperties === 'object' ? (schema.additionalProperties as JsonSchema) : undefined;
  }
  return schema;
}

/** How the validator codes an error of a schema keyword: `<keyword>.openapi.validation`. */
const KEYWORD_CODE = '.openapi.validation';

/**
 * The validator's 400 in our words, the sentence MCP's judge gives for the same input; any
 * other error as it is. Its structured errors name the keyword (errorCode) and the place but
 * not the rule's values, which are read from the schema it judged at that place. A 400 that is no keyword's (a fault of the document, not
 * of the input) goes on as it is, and the host answers it in its own general words.
 */
function inOurWords(err: unknown, op: Operation<unknown>, headers: Readonly<Record<string, JsonSchema>>): unknown {
  if (!(err instanceof OpenApiValidator.error.BadRequest)) return err;
  const problems: SchemaProblem[] = [];
  for (const { path, errorCode } of err.errors) {
    if (!errorCode?.endsWith(KEYWORD_CODE)) return err;
    const keyword = errorCode.slice(0, -KEYWORD_CODE.length);
    problems.push({ keyword, path, params: paramsOf(keyword, schemaAt(path, op, headers) ?? {}) });
  }
  return problems.length ? new InvalidInputError(describeValidationErrors(problems)) : err;
}

/** Runs middleware in turn on the view, then `done` with the first error, if any. */
function runSteps(steps: RequestHandler[], view: View, res: Response, done: (err?: unknown) => void): void {
  const step = (i: number) => (err?: unknown) => {
    if (err || i === steps.length) return done(err);
    void steps[i]!(view as Request, res, step(i + 1));
  };
  step(0)();
}

const SHOWN_ROUTES = 256;

interface Parameter {
  in: string;
  name: string;
  $ref?: string;
  content?: unknown;
  schema?: JsonSchema;
}

interface FoundRoute {
  schema: { parameters?: Parameter[] };
}

/**
 * A parameter the validator's per-request reshaping (its parameter mutator) leaves as the view
 * shows it: not JSON content, no object or combination of schemas to parse or explode, and a
 * list only in the query, which inputFromQuery has made a list already (the mutator leaves a
 * list as it is). Its reserved-character check reads the query of the view's URL, which has none.
 */
function reshapesNothing(p: Parameter): boolean {
  const schema = p.schema;
  if (p.$ref !== undefined || p.content !== undefined || !schema || schema.$ref !== undefined) return false;
  if (schema.type === 'object' || schema.allOf !== undefined || schema.oneOf !== undefined || schema.anyOf !== undefined) return false;
  return schema.type !== 'array' || p.in === 'query';
}

/**
 * The route the validator is shown once it has found it. It judges with what it compiled from
 * the whole route at the route's first request (shown whole, and kept by method, route and
 * content type: every parameter, the required ones too), but on every request it walks the
 * route's parameters to reshape their values: most of its own cost. When no parameter of the
 * route is one it would reshape (reshapesNothing), it is shown the route without parameters,
 * the same object every time, and goes straight to judging. Otherwise a read's route is shown
 * with only the query parameters the request carries (one it lacks has nothing to reshape),
 * kept per set of fields sent, at most SHOWN_ROUTES of them per operation (callers send a
 * handful of sets; past the cap the kept ones start over).
 */
function narrowerOf(op: Operation<unknown>): (found: unknown, input: Record<string, unknown>) => unknown {
  const fields = Object.keys(op.input.properties);
  const shown = new Map<number, unknown>();
  let bare: unknown;
  return (found, input) => {
    const whole = found as FoundRoute;
    if (bare === undefined) bare = (whole.schema.parameters ?? []).every(reshapesNothing) ? { ...whole, schema: { ...whole.schema, parameters: [] } } : null;
    if (bare !== null) return bare;
    if (op.method !== 'GET' || fields.length > 30) return found;
    let sent = 0;
    for (let i = 0; i < fields.length; i += 1) if (input[fields[i]!] !== undefined) sent |= 1 << i;
    let route = shown.get(sent);
    if (route === undefined) {
      const parameters = whole.schema.parameters?.filter((p) => p.in !== 'query' || input[p.name] !== undefined);
      if (shown.size >= SHOWN_ROUTES) shown.clear();
      shown.set(sent, (route = { ...whole, schema: { ...whole.schema, parameters } }));
    }
    return route;
  };
}

/**
 * The REST judges of one host: for each operation, a handler that screens its input
 * (res.locals.input, read by the router) for what no schema catches, then has the validator
 * judge it. One validator serves every operation, made at the first request.
 */
export function restJudges(document: JsonSchema): (op: Operation<unknown>) => RequestHandler {
  const found = new Map<string, unknown>();
  let validator: Validator | undefined;
  return (op) => {
    const route = `/api/v1/${op.name}`;
    const headerSchemas = documentedHeaders(document, op);
    const headers = Object.keys(headerSchemas);
    const narrowed = narrowerOf(op);
    return (req: Request, res: Response, next: NextFunction) => {
      const input: unknown = res.locals.input;
      screenInput(input);
      validator ??= validatorOf(document, found);
      const known = found.get(route);
      const view = viewOf(req, { op, input, headers, openapi: known === undefined ? undefined : narrowed(known, input) });
      runSteps(known === undefined ? validator.all : validator.judge, view, res, (err) => {
        if (known === undefined && view.openapi !== undefined) found.set(route, view.openapi);
        next(err ? inOurWords(err, op, headerSchemas) : undefined);
      });
    };
  };
}
