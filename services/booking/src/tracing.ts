import { startTracing } from '@frontdesk/http/tracing';

/**
 * Imported first by main.ts: with an OTLP endpoint configured, OpenTelemetry patches http,
 * express and pg before anything else loads them; without one, nothing of it is loaded.
 */
startTracing('booking');
