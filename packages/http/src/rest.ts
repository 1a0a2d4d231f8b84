import express, { Router, type Request, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Logger } from 'pino';
import { runOperation } from './call';
import type { JsonSchema, Operation } from './operation';

export interface RestOptions<P> {
  operations: readonly Operation<P>[];
  openApiDocument: JsonSchema;
  /** Resolves the caller from the request or throws a 401/403 AppError. */
  authenticate(req: Request): Promise<P>;
  /** Throws if the principal may not call the operation (e.g. a missing OAuth scope). */
  authorize?(principal: P, op: Operation<P>): void;
  clock(): Date;
  logger: Logger;
}


/**
 * Mounts `/api/v1/<name>` for every operation: bearer auth first (a caller without a key
 * learns nothing else), then JSON parsing and the OpenAPI validator generated from the same
 * definitions, then the handler. Input is the validated query (reads) or body (writes).
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
  router.use(
    OpenApiValidator.middleware({
      apiSpec: opts.openApiDocument as never,
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: true, removeAdditional: false },
      validateResponses: false,
      validateSecurity: false,
      ignorePaths: (path: string) => !path.startsWith('/api/v1/'),
    }),
  );
  for (const op of opts.operations) {
    const route = `/api/v1/${op.name}`;
    const handler: RequestHandler = async (req, res) => {
      const principal = res.locals.principal as P;
      opts.authorize?.(principal, op);
      const input = op.method === 'GET' ? { ...(req.query as object) } : req.body;
      res.json(await runOperation(op, input, req, principal, opts.clock, opts.logger));
    };
    if (op.method === 'GET') router.get(route, handler);
    else router.post(route, handler);
  }
  return router;
}
