import express, { type Request, type RequestHandler, type Response } from 'express';
import { SEND_JSON } from '@frontdesk/domain';
import { AppError } from '@frontdesk/domain';
import { clientNameOf, runJudged, takeBudget, type RunOptions } from './call';
import { readIdempotencyKey } from './idempotency';
import { inputFromQuery } from './input';
import { jsonBody } from './kept-answer';
import type { JsonSchema, Operation } from './operation';
import { restJudges } from './rest-judge';
import { routeOfRequest } from './tracing';

/** What runOperation needs (clock, logger, idempotency, limits, change feed), and the operations and their auth. */
export interface RestOptions<P> extends RunOptions<P> {
  operations: readonly Operation<P>[];
  /** Resolves the caller from the request or throws a 401/403 AppError. */
  authenticate(req: Request): Promise<P>;
  /** Throws if the principal may not call the operation (e.g. a missing OAuth scope). */
  authorize?(principal: P, op: Operation<P>): void;
}

/** 415: a write whose body is not JSON. */
class UnsupportedMediaTypeError extends AppError {
  readonly status = 415;
}

/** A body was sent (any length), so its type matters; an empty POST reads as `{}`. */
const hasBody = (req: Request) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** The operation's input as sent: the query read strictly (reads), or the JSON body (writes). */
function inputOf(op: Operation<unknown>, req: Request): unknown {
  if (op.method === 'GET') return inputFromQuery(op, req.query);
  if (req.body !== undefined) return req.body;
  if (hasBody(req)) throw new UnsupportedMediaTypeError(SEND_JSON);
  return {};
}

/**
 * Before the input is judged, in the order MCP takes the same steps: the scope, the input as
 * sent, the idempotency key (writes only: on a read it is ignored, not even checked for form,
 * as over MCP), the credential's budget, and the caller's name.
 */
function prepare<P>(op: Operation<P>, opts: RestOptions<P>, req: Request, res: Response): Promise<void> | undefined {
  const principal = res.locals.principal as P;
  opts.authorize?.(principal, op);
  res.locals.input = inputOf(op, req);
  res.locals.idempotencyKey = op.readOnly ? undefined : readIdempotencyKey(req.get('idempotency-key'), 'The Idempotency-Key header');
  const named = () => {
    if (opts.clientName === undefined) clientNameOf(req);
  };
  // Most calls' budget is paid from a share at hand, with nothing to wait for.
  const budget = takeBudget(op, req, principal, opts);
  if (budget) return budget.then(named);
  named();
  return undefined;
}

/** Runs the judged input and answers with the result as JSON. */
async function respond<P>(op: Operation<P>, opts: RestOptions<P>, req: Request, res: Response): Promise<void> {
  const { input, principal, idempotencyKey } = res.locals as { input: unknown; principal: P; idempotencyKey?: string };
  const call = { op, input, req, principal, idempotencyKey };
  const { result, replayed } = await runJudged(call, opts);
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  // What res.json would write (no replacer, spacing or ETag is set on these apps), without
  // Express's general send: Node sets the length of a body given whole, and drops it for HEAD.
  // A kept answer (keptAnswer) is written as the text made when it was first sent.
  res.setHeader('Content-Type', JSON_TYPE);
  res.end(jsonBody(result));
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Runs an Express-style step (the body parser, the validator: both call back, neither returns a
 * promise) and settles when it calls next: rejected with what it passed on, if anything.
 */
const step = (handler: RequestHandler, req: Request, res: Response) =>
  new Promise<void>((resolve, reject: (err: Error) => void) => {
    void handler(req, res, (err?: unknown) => (err ? reject(err as Error) : resolve()));
  });

const PREFIX = '/api/v1/';

/** Under /api/v1 as Express mounts a path: any case, the prefix itself or below it. */
function underApi(url: string): boolean {
  const head = url.slice(0, PREFIX.length).toLowerCase();
  return head === PREFIX || (head.startsWith('/api/v1') && (url.length === PREFIX.length - 1 || url[PREFIX.length - 1] === '?'));
}

/** The operation a URL names under /api/v1/ (Express's own matching: any case, one trailing slash), or '' for none. */
function nameIn(url: string): string {
  const end = url.indexOf('?');
  let name = url.slice(PREFIX.length, end === -1 ? undefined : end);
  if (name.endsWith('/')) name = name.slice(0, -1);
  return name.toLowerCase();
}

/**
 * Serves `/api/v1/<name>` for every operation as one flat dispatch: the operation found by its
 * name in a map (no chain of routes each asking whether the request is theirs), then bearer
 * auth (a caller without a key learns nothing else, not even which names exist), JSON parsing,
 * the steps before judging, express-openapi-validator against `openApiDocument` (rest-judge.ts:
 * the same verdicts and sentences as MCP's judge), and the handler. An unknown name goes on, to
 * the host's 404; a known name asked with another method is a 405. It is one middleware
 * of the app's, not a Router of its own: a Router would dispatch every request again (its
 * URL parsed and its request's routing state saved and restored around it), and send every
 * request that is not the API's on to the app's next step a turn of the event loop later.
 */
export function createRestDispatch<P>(opts: RestOptions<P>, openApiDocument: JsonSchema): RequestHandler {
  const json = express.json({ limit: '64kb', type: ['application/json', 'application/*+json'] });
  const judge = restJudges(openApiDocument);
  const byName = new Map(opts.operations.map((op) => [op.name.toLowerCase(), { op, judge: judge(op) }]));
  return async (req, res, next) => {
    if (!req.url.startsWith(PREFIX) && !underApi(req.url)) return next();
    try {
      res.locals.principal = await opts.authenticate(req);
      const route = byName.get(nameIn(req.url));
      if (!route) return next();
      const { op } = route;
      routeOfRequest(`/api/v1/${op.name}`);
      if (req.method !== op.method && !(op.method === 'GET' && req.method === 'HEAD')) {
        res.setHeader('Allow', op.method);
        res.status(405).json({ error: `/api/v1/${op.name} does not take ${req.method}; use ${op.method}.` });
        return;
      }
      // A request without a body skips the parser, which would only set req.body: a property
      // added to a request once Express has swapped its prototype costs several microseconds.
      if (req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined) await step(json, req, res);
      const prepared = prepare(op, opts, req, res);
      if (prepared) await prepared;
      await step(route.judge, req, res);
      await respond(op, opts, req, res);
    } catch (err) {
      next(err);
    }
  };
}
