import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger } from 'pino';
import type { Express } from 'express';
import { pinoHttp, type HttpLogger } from 'pino-http';

/**
 * One logger per service, at the level its caller read from its config. Credentials and the
 * people's details an assistant sends in headers never reach the log, whatever level.
 * `destination` is for tests that read it.
 */
export function createLogger(name: string, level: string, destination?: pino.DestinationStream): Logger {
  const options = {
    name,
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'req.headers["x-user-name"]',
        'req.headers["x-user-email"]',
        'req.headers["x-user-phone"]',
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };

/** Query parameters that carry a secret, as their names read once decoded and lower-cased. */
const SECRET_PARAMS = new Set(['manage_token', 'token', 'access_token', 'refresh_token', 'id_token', 'code', 'code_verifier', 'key', 'client_secret']);
/**
 * Paths whose next segment is a secret: a business's calendar feed, a customer's manage page, a
 * host's rental page, a customer's unsubscribe link.
 */
const SECRET_PATHS = new Set(['calendar', 'manage', 'rental', 'unsubscribe']);
const REDACTED = '[redacted]';

/** Percent-decoding that never throws: text that does not decode is compared as sent. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/** A query's (or fragment's) pairs with the values of secret names blanked; a name is judged decoded and in any case, `token[]` as `token`. */
function redactPairs(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decoded(eq < 0 ? pair : pair.slice(0, eq))
        .toLowerCase()
        .replace(/\[.*$/, '')
        .trim();
      return eq >= 0 && SECRET_PARAMS.has(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    })
    .join('&');
}

/**
 * A URL fit for the log: the secret segment of a calendar or manage path and the values of
 * secret query parameters (manage_token, codes, tokens, keys) blanked. Names are read as the
 * router reads them, decoded and in any case (`/MANAGE/…`, `/%6Danage/…`, `manage%5Ftoken=`),
 * so no spelling the service answers to reaches the log in clear. Works on a path or a whole URL.
 */
export function redactUrl(url: string): string {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? '';
  const rest = url.slice(origin.length);
  const hash = rest.indexOf('#');
  const beforeHash = hash < 0 ? rest : rest.slice(0, hash);
  const q = beforeHash.indexOf('?');
  const path = q < 0 ? beforeHash : beforeHash.slice(0, q);
  const segments = path.split('/');
  // The first segment that is not empty names the page (`//manage/…` routes as `/manage/…` may).
  const first = segments.findIndex((s) => s !== '');
  if (first >= 0 && first + 1 < segments.length && SECRET_PATHS.has(decoded(segments[first]!).toLowerCase()) && segments[first + 1] !== '') {
    segments[first + 1] = REDACTED;
  }
  let out = origin + segments.join('/');
  if (q >= 0) out += `?${redactPairs(beforeHash.slice(q + 1))}`;
  if (hash >= 0) out += `#${redactPairs(rest.slice(hash + 1))}`;
  return out;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The caller's X-Request-Id when it is a plain token, else a new UUID; echoed in the answer. */
function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * pino-http binds the raw request to a child logger as every request arrives, and the
 * standard serializers copy every header into it, eagerly, whatever the level (5-8% of a
 * small call). Bound under `reqId`, the request serializes to its id alone: `req.log` is that
 * one child, and headers and bodies never reach the log. A raw request or response logged
 * under `req` or `res` is dropped; the completion line carries its own compact objects.
 */
const SERIALIZERS = {
  reqId: (value: unknown) => (value instanceof IncomingMessage ? value.id : value),
  req: (value: unknown) => (value instanceof IncomingMessage ? undefined : value),
  res: (value: unknown) => (value instanceof ServerResponse ? undefined : value),
};

/** The completion line: method, URL, address, status, Location (both redacted) and time; never a header or body. */
function completion(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, logged: { responseTime: number }) {
  const location = res.getHeader('location');
  return {
    req: { method: req.method, url: redactUrl(req.originalUrl ?? req.url ?? ''), remoteAddress: req.socket.remoteAddress },
    res: { statusCode: res.statusCode, ...(typeof location === 'string' ? { location: redactUrl(location) } : {}) },
    responseTime: logged.responseTime,
  };
}

/**
 * Request ids and the access log, by pino-http. Every request gets an id (requestIdFor) and
 * `req.log`, a child logger bound to that id only; one "request completed" line at info per
 * request (a 5xx too: the error itself is logged where it is handled), none for `quiet` URLs.
 * Below info nothing is built for that line at all.
 */
export function requestLogger(logger: Logger, quiet: (url: string) => boolean): HttpLogger {
  return pinoHttp({
    logger,
    genReqId: requestIdFor,
    customAttributeKeys: { req: 'reqId' },
    wrapSerializers: false,
    serializers: SERIALIZERS,
    autoLogging: { ignore: (req) => quiet(req.url ?? '') },
    customLogLevel: () => (logger.isLevelEnabled('info') ? 'info' : 'silent'),
    customSuccessObject: completion,
    customErrorObject: (req, res, _err, logged: { responseTime: number }) => completion(req, res, logged),
    customErrorMessage: () => 'request completed',
  });
}

/**
 * Runs pino-http on each request before Express sees it. Express 5 swaps the prototype of
 * each request and response as it arrives, and V8 then makes every property added to them
 * afterwards costly (about 20 µs each here, against under 1 µs before the swap): pino-http
 * adds seven, so it runs first, on the plain objects, at the start of the app's own handle.
 */
export function logBeforeExpress(app: Express, log: HttpLogger): void {
  // Express's app calls its own `handle` for every request (application.js); its types do not list it.
  const target = app as unknown as { handle(req: IncomingMessage, res: ServerResponse, next?: unknown): void };
  const handle = target.handle.bind(app);
  target.handle = (req, res, next) => {
    log(req, res);
    handle(req, res, next);
  };
}

/** The id requestLogger gave the request, as text for answers and logs. */
export function requestIdOf(req: { id?: unknown }): string {
  return typeof req.id === 'string' || typeof req.id === 'number' ? String(req.id) : '';
}
