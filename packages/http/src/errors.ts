import { requestIdOf } from './logger';
import { somethingWentWrong } from '@frontdesk/domain';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { AppError, ForbiddenError } from '@frontdesk/domain';
import type { Logger } from 'pino';
import { RateLimitedError, setRateLimitedHeaders } from './rate-limit';

export { AppError, ForbiddenError, InvalidInputError, NotFoundError, UnauthorizedError } from '@frontdesk/domain';

/** A 401 with its `WWW-Authenticate` challenge (RFC 6750). */
export class AuthChallengeError extends AppError {
  readonly status = 401;
  constructor(
    message: string,
    readonly challenge: string,
  ) {
    super(message);
  }
}

/** A 403 for a credential that lacks a scope (RFC 6750 §3.1 insufficient_scope). */
export class InsufficientScopeError extends ForbiddenError {
  constructor(
    message: string,
    readonly challenge: string,
  ) {
    super(message);
  }
}

/**
 * The headers an AppError's answer carries, whichever transport or page answers it: its
 * challenge, or when to try again.
 */
export function setErrorHeaders(res: Pick<Response, 'setHeader'>, err: AppError): void {
  if (err instanceof AuthChallengeError || err instanceof InsufficientScopeError) res.setHeader('WWW-Authenticate', err.challenge);
  if (err instanceof RateLimitedError) setRateLimitedHeaders(res, err);
  else if (err.status === 503) res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
}

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
}

export interface ErrorMappingOptions {
  logger: Logger;
  /** The operations there are, named in the answer to an unknown path. */
  knownPaths?: () => string[];
  /** True for an error that means the database is away or busy: answered 503, retry soon. */
  isUnavailable?: (err: unknown) => boolean;
}

/** What a caller is told when the database could not be reached or did not answer in time. */
export const UNAVAILABLE_MESSAGE =
  'The service could not reach its database just now. Try again in a few seconds; a write sent with an Idempotency-Key is safe to retry.';
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/** Maps every error to `{error}` with the right status; a 500 says nothing of internals. */
export function errorHandler(opts: ErrorMappingOptions): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const requestId = requestIdOf(req);
    const send = (status: number, error: string) => {
      if (!res.headersSent) res.status(status).json({ error });
    };
    if (err instanceof AppError) {
      setErrorHeaders(res, err);
      return send(err.status, err.message);
    }
    const e = (err ?? {}) as HttpLikeError;
    const status = e.status ?? e.statusCode ?? 500;
    if (e.type === 'entity.parse.failed') return send(400, 'The request body is not valid JSON.');
    if (e.type === 'entity.too.large') return send(413, 'The request body is too large; the limit is 64 KB.');
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
      return send(415, 'Send the body as UTF-8 JSON with Content-Type: application/json.');
    }
    if (status === 415) return send(415, 'Send the body as JSON with Content-Type: application/json.');
    if (status >= 400 && status < 500) return send(status, e.message ?? 'The request was refused.');
    if (opts.isUnavailable?.(err)) {
      opts.logger.warn({ err: { message: (err as Error).message }, requestId }, 'database unavailable');
      res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      return send(503, UNAVAILABLE_MESSAGE);
    }
    opts.logger.error({ err, requestId }, 'unhandled error');
    return send(500, somethingWentWrong(requestId));
  };
}

/** The answer for any path nobody mounted: JSON, never an HTML page. */
export function notFoundHandler(opts: Pick<ErrorMappingOptions, 'knownPaths'>): RequestHandler {
  return (req, res) => {
    const known = opts.knownPaths?.() ?? [];
    const what = req.path.startsWith('/api/') ? `operation at ${req.method} ${req.path}` : `${req.method} ${req.path} here`;
    res.status(404).json({ error: `There is no ${what}.${known.length ? ` Operations: ${known.join(', ')}.` : ''}` });
  };
}
