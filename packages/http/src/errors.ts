import { requestIdOf } from './logger';
import { SEND_JSON, requestWords, somethingWentWrong } from '@frontdesk/domain';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { errorLine, sendView } from './html';
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
  /** body-parser's limit in bytes (entity.too.large). */
  limit?: number;
  /** zlib's code for a body that does not decompress (a Content-Encoding that lies). */
  code?: string;
  /** The Content-Encoding body-parser would not read. */
  encoding?: string;
}

/**
 * An error of reading the request (body-parser, raw-body, zlib, the router's decoding of a
 * path parameter) as a status and a sentence of ours: the libraries' own words ("incorrect
 * header check", "Failed to decode param '%ZZ'") are never shown. Null for any other error.
 */
export function readingRefusal(err: unknown): { status: number; sentence: string } | null {
  if (err instanceof URIError) return { status: 400, sentence: requestWords.badPercentEncoding };
  const e = (err ?? {}) as HttpLikeError;
  const status = e.status ?? e.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  switch (e.type) {
    case 'entity.parse.failed':
      return { status: 400, sentence: requestWords.bodyNotJson };
    case 'entity.too.large':
      return { status: 413, sentence: requestWords.bodyTooLarge(Math.round((e.limit ?? 65_536) / 1024)) };
    case 'encoding.unsupported':
      return { status: 415, sentence: requestWords.encodingUnsupported(String(e.encoding ?? /"([^"]*)"/.exec(e.message ?? '')?.[1] ?? '')) };
    case 'charset.unsupported':
      return { status: 415, sentence: requestWords.bodyNotUtf8 };
    case 'request.size.invalid':
    case 'request.aborted':
      return { status: 400, sentence: requestWords.bodyIncomplete };
    case 'parameters.too.many':
      return { status: 413, sentence: requestWords.tooManyFields };
  }
  // A body that is not what its Content-Encoding says (zlib's Z_DATA_ERROR, Z_BUF_ERROR, …; brotli's ERR__ERROR_…).
  if (typeof e.code === 'string' && /^(Z_|ERR__ERROR|ERR_BROTLI)/.test(e.code)) return { status: 400, sentence: requestWords.encodingLie };
  if (status === 415) return { status, sentence: SEND_JSON };
  return { status, sentence: requestWords.refused(status) };
}

/** A request for a page, not for JSON: everything but the API, MCP, the OAuth JSON endpoints and well-known documents. */
const JSON_PATHS = /^\/(?:api|mcp|\.well-known|token|register|revoke|openapi\.json|healthz|readyz)(?:\/|$)|^\/[^/]+\/api(?:\/|$)/i;
export const wantsPage = (req: Pick<Request, 'path'>): boolean => !JSON_PATHS.test(req.path);

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
  // An error of a request whose deadline has come never reaches here: lateErrors (deadline.ts), mounted before it, answers it as the deadline.
  return (err: unknown, req, res, _next) => {
    const requestId = requestIdOf(req);
    const send = (status: number, error: string) => {
      if (!res.headersSent) res.status(status).json({ error });
    };
    if (err instanceof AppError) {
      setErrorHeaders(res, err);
      return send(err.status, err.message);
    }
    const reading = readingRefusal(err);
    if (reading) {
      if (res.headersSent) return;
      if (wantsPage(req)) return sendView(res, reading.status, { title: requestWords.pageTitle, body: errorLine(reading.sentence) });
      return send(reading.status, reading.sentence);
    }
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
