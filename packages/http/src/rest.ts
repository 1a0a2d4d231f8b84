import express, { Router, type Request, type RequestHandler } from 'express';
import { AppError } from '@frontdesk/domain';
import { runOperation, type RunOptions } from './call';
import { readIdempotencyKey } from './idempotency';
import { inputFromQuery } from './input';
import type { Operation } from './operation';

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

/**
 * Mounts `/api/v1/<name>` for every operation: bearer auth first (a caller without a key
 * learns nothing else), then JSON parsing, then the handler. The input is the query (reads)
 * or the body (writes); runOperation checks it against the operation's one schema, exactly
 * as it checks MCP arguments, so both transports refuse the same things in the same words.
 */
export function createRestRouter<P>(opts: RestOptions<P>): Router {
  const router = Router();
  const authenticated: RequestHandler = async (req, res, next) => {
    try {
      res.locals.principal = await opts.authenticate(req);
      next();
    } catch (err) {
      next(err);
    }
  };
  router.use('/api/v1', authenticated);
  router.use('/api/v1', express.json({ limit: '64kb', type: ['application/json', 'application/*+json'] }));
  for (const op of opts.operations) {
    const route = `/api/v1/${op.name}`;
    const handler: RequestHandler = async (req, res) => {
      const principal = res.locals.principal as P;
      opts.authorize?.(principal, op);
      let input: unknown;
      if (op.method === 'GET') input = inputFromQuery(op, req.query);
      else if (req.body !== undefined) input = req.body;
      else if (hasBody(req)) throw new UnsupportedMediaTypeError('Send the body as JSON with Content-Type: application/json.');
      else input = {};
      const key = readIdempotencyKey(req.get('idempotency-key'), 'The Idempotency-Key header');
      const { result, replayed } = await runOperation(op, input, req, principal, opts, key);
      if (replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.json(result);
    };
    if (op.method === 'GET') router.get(route, handler);
    else router.post(route, handler);
    router.all(route, (req, res) => {
      res.setHeader('Allow', op.method);
      res.status(405).json({ error: `${route} does not take ${req.method}; use ${op.method}.` });
    });
  }
  return router;
}
