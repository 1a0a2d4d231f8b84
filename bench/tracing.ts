import { startTracing } from '@frontdesk/http/tracing';

/**
 * With OTEL_EXPORTER_OTLP_TRACES_ENDPOINT set (run.ts sets it for the traced twin of the pro
 * host, 'quote_job tracing on'), tracing patches http, express and pg before server.ts loads
 * them, exactly as a host's own tracing.ts does; without it, nothing is loaded.
 */
startTracing(`bench-${process.argv[2]}`);
