import type { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { flatten, readTracingSettings } from '@frontdesk/config';
import { startTracing, tracingOn } from '@frontdesk/http/tracing';

/**
 * The pro-desk host as its entry point runs it, for traces.test.ts: its spans are kept in
 * memory (an InMemorySpanExporter in the OTLP exporter's place) and handed to the test over
 * the IPC channel when it asks. Tracing is on or off by the environment, as in production.
 */
let exporter: InMemorySpanExporter | null = null;
if (readTracingSettings(flatten(process.env)).endpoint !== null) {
  // Loaded only when tracing is on, so that off, this process loads nothing of OpenTelemetry at all.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { InMemorySpanExporter } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  exporter = new InMemorySpanExporter();
  startTracing('pro-desk', { exporter });
}

/** A span as the test reads it: what an exporter would send. */
const plain = (s: ReadableSpan) => ({
  name: s.name,
  kind: s.kind,
  traceId: s.spanContext().traceId,
  spanId: s.spanContext().spanId,
  parentSpanId: s.parentSpanContext?.spanId,
  attributes: s.attributes,
  status: s.status,
  events: s.events.map((e) => ({ name: e.name, attributes: e.attributes })),
  links: s.links.map((l) => ({ traceId: l.context.traceId, spanId: l.context.spanId })),
});

process.on('message', (ask: string) => {
  if (ask !== 'spans') return;
  // What this process has loaded of OpenTelemetry's SDK and instrumentations: with tracing off,
  // nothing is the promise. (The API alone is loaded by prom-client in any case, and is a no-op.)
  const loaded = Object.keys(require.cache).filter((f) => /[\\/]@opentelemetry[\\/](?!api[\\/])/.test(f));
  process.send!({ on: tracingOn(), loaded: loaded.length, spans: (exporter?.getFinishedSpans() ?? []).map(plain) });
});

// The entry point itself, once tracing has patched what it will load.
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('../services/pro-desk/src/main');
