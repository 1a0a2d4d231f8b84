import type { Context, Link, Span, Tracer } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { flatten, readTracingSettings, tracingSettingsOfProcess } from '@frontdesk/config';

/**
 * OpenTelemetry traces of a host, off unless an OTLP endpoint is configured (the standard
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT). Off, nothing of
 * OpenTelemetry is loaded, not even its API: the spans below are a test of one variable.
 *
 * On, a request's trace is the HTTP server span (the http instrumentation, joined to the
 * caller's `traceparent` header), Express's router and handler spans, one span per operation
 * (`op <name>`, from runJudged, where every transport's call runs), and a span per SQL
 * statement (the pg instrumentation: the parametrized text, never the values). An MCP message
 * that carries `_meta.traceparent` is served in a span of the caller's trace (mcpSpan).
 *
 * The SDK must patch `http`, `express` and `pg` before anything loads them, so a host's entry
 * point imports its `tracing.ts` first, and that calls startTracing: this module loads none of
 * them, and the package exports it alone as `@frontdesk/http/tracing`.
 */

type Api = typeof import('@opentelemetry/api');

interface On {
  api: Api;
  core: typeof import('@opentelemetry/core');
  tracer: Tracer;
  shutdown: () => Promise<void>;
}

let on: On | null = null;

/** Paths that are not requests anyone made of the service (probes, scrapes): no trace, as no metric. */
const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

export interface TracingOptions {
  /** The environment to read the endpoint from (the process's own by default). */
  env?: Record<string, string | undefined>;
  /**
   * Where finished spans go instead of the OTLP endpoint (a test's InMemorySpanExporter, the
   * bench's): each span is handed over as it ends. Tracing is still on only when an endpoint is set.
   */
  exporter?: SpanExporter;
}

/** Whether this process traces (startTracing found an endpoint). */
export const tracingOn = (): boolean => on !== null;

/**
 * Starts tracing for `service` when an OTLP endpoint is configured, and answers whether it
 * did. Call it before anything imports http, express or pg; a second call changes nothing.
 */
export function startTracing(service: string, o: TracingOptions = {}): boolean {
  if (on) return true;
  let endpoint: string | null;
  try {
    endpoint = (o.env ? readTracingSettings(flatten(o.env)) : tracingSettingsOfProcess()).endpoint;
  } catch {
    // A malformed endpoint: the host's own config reader refuses it in a line of its own, next.
    return false;
  }
  if (endpoint === null) return false;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on, before express and pg */
  const api = require('@opentelemetry/api') as Api;
  const core = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation, ExpressLayerType } =
    require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const processor = o.exporter
    ? new SimpleSpanProcessor(scrubbing(o.exporter))
    : new BatchSpanProcessor(
        scrubbing(
          new (require('@opentelemetry/exporter-trace-otlp-proto') as typeof import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter({
            url: endpoint,
          }),
        ),
      );
  /* eslint-enable @typescript-eslint/no-require-imports */
  const provider = new NodeTracerProvider({ resource: resourceFromAttributes({ 'service.name': service }), spanProcessors: [processor] });
  // The global provider, AsyncLocalStorage context and the W3C traceparent propagator.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED.has(pathOf(req)),
        // The attributes a request's span starts with: no query values, no ids or tokens in paths.
        startIncomingSpanHook: (req) => safeUrlAttributes(req),
        // The workers' calls (webhooks) are not requests: traced only inside one.
        requireParentforOutgoingSpans: true,
      }),
      // The router and the handler, not each middleware every request walks through (helmet, the
      // log, the deadline): six spans a call that say nothing a slow request needs.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // The statement's parametrized text only (never its values), and only inside a request:
      // the workers' polling would otherwise be a trace a query. Taking a pooled connection is
      // not a span of its own (a wait for one still shows as the gap before the statement).
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true, ignoreConnectSpans: true }),
    ],
  });
  on = { api, core, tracer: api.trace.getTracer('@frontdesk/http'), shutdown: () => provider.shutdown() };
  return true;
}

/** A status message that is a class and a code (statusOf's, the pg instrumentation's sanitized one), nothing a caller wrote. */
const SAFE_STATUS = /^(?:[A-Za-z]+(?: [\w.-]+)?|PostgreSQL error of type '\w+' occurred \(code: \w+\))$/;

/**
 * What leaves the process: every span as the instrumentations made it, except what an error
 * says. An error's message may quote what the caller sent (the express and http
 * instrumentations record it whole), so an exception event keeps its type and its stack
 * without the message's line, and a status keeps its message only when it is a class and code.
 */
function scrubbing(exporter: SpanExporter): SpanExporter {
  const scrub = (span: ReadableSpan): ReadableSpan => {
    const events = span.events.map((e) => {
      if (e.name !== 'exception' || !e.attributes) return e;
      const { 'exception.message': _message, 'exception.stacktrace': stack, ...rest } = e.attributes;
      const frames = typeof stack === 'string' ? stack.split('\n').slice(1).join('\n') : undefined;
      return { ...e, attributes: frames ? { ...rest, 'exception.stacktrace': frames } : rest };
    });
    const { code, message } = span.status;
    const status = message === undefined || SAFE_STATUS.test(message) ? span.status : { code };
    // The span itself underneath (its context, times, resource): only these two read differently.
    return Object.create(span, { events: { value: events }, status: { value: status } }) as ReadableSpan;
  };
  return {
    export: (spans, done) => exporter.export(spans.map(scrub), done),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/** Sends what is still buffered and stops; nothing when tracing is off. */
export async function stopTracing(): Promise<void> {
  await on?.shutdown();
}

const pathOf = (req: { url?: string }) => (req.url ?? '/').split('?', 1)[0]!;

/**
 * A request's URL as its span may keep it: the query's names without their values, and the
 * path whole only where it names no record or token (an operation of the REST API, /mcp, a
 * one-word page); any other page keeps its first word and Express adds the route's pattern
 * (`http.route`, e.g. /manage/:token) when it has matched.
 */
export function safeUrlAttributes(req: { url?: string }): Record<string, string> {
  const url = req.url ?? '/';
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  const segments = path.split('/').filter(Boolean);
  const plain = segments.length <= 1 || path.startsWith('/api/') || path.startsWith('/.well-known/');
  const attributes: Record<string, string> = { 'url.path': plain ? path : `/${segments[0]}/…` };
  if (at >= 0) {
    const names = [...new URLSearchParams(url.slice(at + 1)).keys()];
    attributes['url.query'] = names.map((n) => `${encodeURIComponent(n)}=REDACTED`).join('&');
  }
  return attributes;
}

/** An error as a span's status may name it: its class and code, never its message (which may quote input). */
function statusOf(err: unknown): string {
  if (!(err instanceof Error)) return 'error';
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' || typeof code === 'number' ? `${err.name} ${code}` : err.name;
}

/** Runs `fn` in a span of its own when tracing is on (its errors mark it, by class only); just `fn` when off. */
function inSpan<T>(
  name: string,
  options: { attributes?: Record<string, string | boolean>; kind?: 'server'; links?: Link[] },
  parent: Context | null,
  fn: (span: Span | null) => Promise<T>,
): Promise<T> {
  if (!on) return fn(null);
  const { api, tracer } = on;
  const spanOptions = { attributes: options.attributes, links: options.links, kind: options.kind === 'server' ? api.SpanKind.SERVER : api.SpanKind.INTERNAL };
  return tracer.startActiveSpan(name, spanOptions, parent ?? api.context.active(), async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: statusOf(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * Names the request's route for its HTTP span (`POST /api/v1/book_job`), as Express's
 * instrumentation does for a route it matched: the REST dispatch finds its operation by name
 * in a map, not through an Express route.
 */
export function routeOfRequest(route: string): void {
  if (!on) return;
  const metadata = on.core.getRPCMetadata(on.api.context.active());
  if (metadata?.type === on.core.RPCType.HTTP) metadata.route = route;
}

/**
 * An operation's span, `op <name>`, around its run: its SQL statements are its children. It
 * says whether the answer was a replay of a kept one (`frontdesk.replayed`), nothing of the input.
 */
export function operationSpan<T extends { replayed: boolean }>(operation: string, readOnly: boolean, fn: () => Promise<T>): Promise<T> {
  // Off (as on every host without an endpoint), the call runs as it is: no wrapper on the hot path.
  if (!on) return fn();
  return inSpan(`op ${operation}`, { attributes: { 'frontdesk.operation': operation, 'frontdesk.read_only': readOnly } }, null, async (span) => {
    const answered = await fn();
    span?.setAttribute('frontdesk.replayed', answered.replayed);
    return answered;
  });
}

/**
 * An MCP request's span (`tools/call book_cleaning`, as OpenTelemetry's MCP conventions name
 * it). Its parent is the caller's trace from `params._meta.traceparent` (and `tracestate`)
 * when the message carries one (SEP-414; the 2026-07-28 revision's way, since one HTTP
 * request may carry messages of several traces), linked to the HTTP request's span; else the
 * HTTP request's span itself.
 */
export function mcpSpan<T>(method: string, params: unknown, fn: () => Promise<T>): Promise<T> {
  if (!on) return fn();
  const { api } = on;
  const p = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
  const meta = typeof p._meta === 'object' && p._meta !== null ? (p._meta as Record<string, unknown>) : {};
  const carrier: Record<string, string> = {};
  for (const key of ['traceparent', 'tracestate']) if (typeof meta[key] === 'string') carrier[key] = meta[key];
  const attributes: Record<string, string> = { 'mcp.method.name': method };
  const tool = method === 'tools/call' && typeof p.name === 'string' ? p.name : undefined;
  if (tool) attributes['gen_ai.tool.name'] = tool;
  let parent: Context | null = null;
  let links: Link[] | undefined;
  if (carrier.traceparent) {
    const callers = api.propagation.extract(api.ROOT_CONTEXT, carrier);
    const given = api.trace.getSpanContext(callers);
    const transport = api.trace.getSpanContext(api.context.active());
    if (given && api.isSpanContextValid(given)) {
      parent = callers;
      if (transport && transport.traceId !== given.traceId) links = [{ context: transport }];
    }
  }
  return inSpan(tool ? `${method} ${tool}` : method, { attributes, kind: 'server', links }, parent, () => fn());
}
