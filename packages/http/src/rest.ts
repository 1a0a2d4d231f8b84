import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { SEND_JSON } from '@frontdesk/domain';
import { AppError } from '@frontdesk/domain';
import { clientNameOf, runJudged, takeBudget, type RunOptions } from './call';
import { readIdempotencyKey } from './idempotency';
import { inputFromQuery } from './input';
import type { JsonSchema, Operation } from './operation';
import { restJudges } from './rest-judge';

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
function prepare<P>(op: Operation<P>, opts: RestOptions<P>): RequestHandler {
  return async (req, res, next) => {
    const principal = res.locals.principal as P;
    opts.authorize?.(principal, op);
    res.locals.input = inputOf(op, req);
    res.locals.idempotencyKey = op.readOnly ? undefined : readIdempotencyKey(req.get('idempotency-key'), 'The Idempotency-Key header');
    await takeBudget(op, req, principal, opts);
    if (opts.clientName === undefined) clientNameOf(req);
    next();
  };
}

/** Runs the judged input and answers with the result as JSON. */
function respond<P>(op: Operation<P>, opts: RestOptions<P>): RequestHandler {
  return async (req: Request, res: Response) => {
    const { input, principal, idempotencyKey } = res.locals as { input: unknown; principal: P; idempotencyKey?: string };
    const call = { op, input, req, principal, idempotencyKey };
    const { result, replayed } = await runJudged(call, opts);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.json(result);
  };
}

/**
 * Mounts `/api/v1/<name>` for every operation: bearer auth first (a caller without a key
 * learns nothing else), then JSON parsing, then per operation: the steps before judging,
 * express-openapi-validator against `openApiDocument` (rest-judge.ts: the same verdicts and
 * sentences as MCP's judge), and the handler.
 */
export function createRestRouter<P>(opts: RestOptions<P>, openApiDocument: JsonSchema): Router {
  const router = Router();
  const authenticated: RequestHandler = async (req, res, next) => {
    res.locals.principal = await opts.authenticate(req);
    next();
  };
  router.use('/api/v1', authenticated);
  const json = express.json({ limit: '64kb', type: ['application/json', 'application/*+json'] });
  // A request without a body skips the parser, which would only set req.body: a property
  // added to a request once Express has swapped its prototype costs several microseconds.
  router.use('/api/v1', (req, res, next) =>
    req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined ? next() : json(req, res, next),
  );
  const judge = restJudges(openApiDocument);
  for (const op of opts.operations) {
    const route = `/api/v1/${op.name}`;
    const handlers = [prepare(op, opts), judge(op), respond(op, opts)];
    if (op.method === 'GET') router.get(route, ...handlers);
    else router.post(route, ...handlers);
    router.all(route, (req, res) => {
      res.setHeader('Allow', op.method);
      res.status(405).json({ error: `${route} does not take ${req.method}; use ${op.method}.` });
    });
  }
  return router;
}
