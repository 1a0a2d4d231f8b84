import express, { type Express, type RequestHandler, type Router } from 'express';
import type { Logger } from 'pino';
import { errorHandler, notFoundHandler } from './errors';
import { logBeforeExpress, requestLogger } from './logger';
import { securityHeaders } from './security-headers';
import { DEFAULT_REQUEST_DEADLINE_MS } from '@frontdesk/config';
import { lateErrors, requestDeadline } from './deadline';
import { buildOpenApiDocument, type OpenApiOptions } from './openapi';
import { apiReferenceHtml } from './api-reference';
import { sendPage, sendView } from './html';
import type { Html } from './template';
import type { JsonSchema, Operation } from './operation';
import { createMcpRouter, type McpOptions } from './mcp';
import { createRestDispatch, type RestOptions } from './rest';
import type { WithinDeadline } from './idempotency';

export interface BaseAppOptions {
  logger: Logger;
  /** The host's public URL: HSTS is sent when it is https. */
  publicUrl: string;
  /** Express's "trust proxy" (TRUST_PROXY): whose X-Forwarded-For names the client. */
  trustProxy?: boolean | number | string;
  /** Readiness: resolves when the database answers; a rejection's `readiness`, when it has one, is said on /readyz. */
  ready(): Promise<void>;
  openApiDocument: JsonSchema;
  operations: readonly Operation<unknown>[];
  /** Routers (or a middleware of one's own) mounted after health and well-known routes, before the error handler. */
  routers: (Router | RequestHandler)[];
  /** True for an error that means the database is away or busy (answered 503). */
  isUnavailable?: (err: unknown) => boolean;
  /** The page at `/`: what this host is and where to go from it. */
  frontDoor?: { title: string; html: Html };
  /** REQUEST_DEADLINE_MS: every request is answered within it (503 with Retry-After when its work is not done). */
  requestDeadlineMs?: number;
  /** Bounds a page's own database work by its request's deadline (withinRequest). */
  withinDeadline?: WithinDeadline;
}

/** Health checks, request ids and logs first; the API routers; the error mapper last. */
export function createBaseApp(opts: BaseAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // Answers are no-store: an ETag would hash every body for a cache that never keeps it.
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', opts.trustProxy ?? false);
  logBeforeExpress(
    app,
    requestLogger(opts.logger, (url) => url === '/healthz' || url === '/readyz'),
  );
  // Every answer is no-store unless it says otherwise (the icon, the dashboard's script): API
  // answers, pages, redirects, new keys and calendar feeds carry secrets or personal data.
  app.use(securityHeaders(opts.publicUrl));
  app.use(requestDeadline(opts.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS, opts.withinDeadline));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await opts.ready();
      res.json({ status: 'ready' });
    } catch (err) {
      // A reason of its own (the schema behind the code), or the database away.
      const readiness = (err as { readiness?: unknown }).readiness;
      res.status(503).json({ error: typeof readiness === 'string' ? readiness : 'The database is not reachable.' });
    }
  });
  app.get('/openapi.json', (_req, res) => {
    res.json(opts.openApiDocument);
  });
  // The same document for a person, rendered here: no script, nothing fetched from elsewhere.
  const reference = apiReferenceHtml(opts.openApiDocument, opts.publicUrl);
  const title = String((opts.openApiDocument.info as { title?: string } | undefined)?.title ?? 'API');
  app.get('/docs', (_req, res) => sendView(res, 200, { title: `${title} reference`, body: reference }));
  // Browsers ask every host for an icon: nothing to show, and no API's JSON 404 for it.
  app.get('/favicon.ico', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.status(204).end();
  });
  const front = opts.frontDoor;
  if (front) app.get('/', (_req, res) => sendPage(res, 200, front.title, front.html));
  for (const router of opts.routers) app.use(router);

  const knownPaths = () => opts.operations.map((o) => `${o.method} /api/v1/${o.name}`);
  app.use(notFoundHandler({ knownPaths }));
  app.use(lateErrors);
  app.use(errorHandler({ logger: opts.logger, isUnavailable: opts.isUnavailable }));
  return app;
}

export interface ServiceAppOptions<P> extends RestOptions<P> {
  /** The MCP endpoint at /mcp, generated from the same operations. */
  mcp: Pick<McpOptions<P>, 'serverInfo' | 'instructions' | 'allowedOrigins' | 'views'>;
  /** Check every answer against its output schema (the caller decides, from its config; tests turn it on). */
  checkAnswers: boolean;
  title: string;
  description: string;
  version: string;
  publicUrl: string;
  headerParameters?: JsonSchema[];
  oauth?: OpenApiOptions['oauth'];
  examples?: OpenApiOptions['examples'];
  requestExamples?: OpenApiOptions['requestExamples'];
  tags?: OpenApiOptions['tags'];
  license?: OpenApiOptions['license'];
  frontDoor?: BaseAppOptions['frontDoor'];
  ready(): Promise<void>;
  /** Routers mounted before the API (well-known metadata, pages). */
  routers?: Router[];
  isUnavailable?: (err: unknown) => boolean;
  trustProxy?: boolean | number | string;
}

/** A service's whole app from its operation registry: /openapi.json, /api/v1/*, health, errors. */
export function createServiceApp<P>(opts: ServiceAppOptions<P>): Express {
  const openApiDocument = buildOpenApiDocument({
    title: opts.title,
    version: opts.version,
    description: opts.description,
    serverUrl: opts.publicUrl,
    operations: opts.operations,
    headerParameters: opts.headerParameters,
    oauth: opts.oauth,
    examples: opts.examples,
    requestExamples: opts.requestExamples,
    tags: opts.tags,
    license: opts.license,
  });
  return createBaseApp({
    logger: opts.logger,
    publicUrl: opts.publicUrl,
    trustProxy: opts.trustProxy,
    ready: () => opts.ready(),
    isUnavailable: opts.isUnavailable,
    requestDeadlineMs: opts.requestDeadlineMs,
    withinDeadline: opts.withinDeadline,
    openApiDocument,
    frontDoor: opts.frontDoor,
    operations: opts.operations,
    // The API first: its calls, the hot path, never walk the pages' routes (they are matched by path prefix).
    routers: [createRestDispatch<P>(opts, openApiDocument), createMcpRouter<P>({ ...opts, ...opts.mcp }), ...(opts.routers ?? [])],
  });
}
