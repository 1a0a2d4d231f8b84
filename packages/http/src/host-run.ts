import type { Express } from 'express';
import type { Logger } from 'pino';
import type { RequestListener } from 'node:http';
import type { DatabaseSettings, LogLevel, OpsSettings } from '@frontdesk/config';
import type { CredentialRateLimit, RunOptions } from './call';
import type { WithinDeadline } from './idempotency';
import type { HostLimits } from './rate-limit';
import { createLogger } from './logger';
import { closeServer, listen, shutdownOnSignals } from './server';
import { createHostMetrics, metricsEndpoint, type MetricSources } from './metrics';
import { stopTracing, tracingOn } from './tracing';

/** What a host's context holds that decides how its calls run. */
interface RunContext {
  clock: () => Date;
  logger: Logger;
  changes?: { fence(): Promise<void> };
  config: { checkAnswers?: boolean; requestDeadlineMs?: number };
}

/**
 * How every call of a host runs, whether an assistant's or a page's: the same limits, checks
 * and fences. The host says only whose budget a call spends.
 */
export function hostRunOptions<P>(
  ctx: RunContext,
  o: {
    limits: HostLimits;
    subjectOf: CredentialRateLimit<P>['subjectOf'];
    withinDeadline: WithinDeadline;
    readsFromReplica?: RunOptions<P>['readsFromReplica'];
  },
): RunOptions<P> & { checkAnswers: boolean } {
  return {
    rateLimit: { host: o.limits, subjectOf: o.subjectOf },
    clock: ctx.clock,
    changes: ctx.changes,
    logger: ctx.logger,
    checkAnswers: ctx.config.checkAnswers ?? false,
    requestDeadlineMs: ctx.config.requestDeadlineMs,
    withinDeadline: o.withinDeadline,
    readsFromReplica: o.readsFromReplica,
  };
}

/** The settings every host's entry point reads from its config. */
interface HostConfig extends OpsSettings {
  port: number;
  publicUrl: string;
  logLevel: LogLevel;
  database: DatabaseSettings;
}

/** A host's database, its change feed, what /metrics reads of it, and how to close both. */
interface HostDb<D, F> {
  db: D;
  changes: F;
  gauges?: Pick<MetricSources, 'pool' | 'backlog' | 'replicas'>;
  close: () => Promise<void>;
}

/** What differs between the hosts' entry points; `runHost` does the rest in one order for both. */
export interface HostEntry<C extends HostConfig, D, F> {
  /** The logger's and the database connections' name, and the start of the log lines. */
  name: string;
  /** The variable that sets the port, named when the port is taken. */
  portVariable: string;
  readConfig: () => C;
  /** Runs before the database is opened (pro-desk migrates here when asked). */
  beforeOpen?: (config: C) => Promise<void>;
  openDb: (o: { applicationName: string; database: DatabaseSettings; logger: Logger }) => HostDb<D, F>;
  startWorkers: (
    parts: { db: D; changes: F; logger: Logger; clock: () => Date },
    config: C,
  ) => { stop: () => Promise<void> } & Pick<MetricSources, 'heartbeats'>;
  createApp: (ctx: { db: D; config: C; logger: Logger; clock: () => Date; changes: F }) => { app: Express };
}

async function startHost<C extends HostConfig, D, F>(e: HostEntry<C, D, F>): Promise<void> {
  const config = e.readConfig();
  const logger = createLogger(e.name, config.logLevel);
  await e.beforeOpen?.(config);
  const { db, changes, gauges, close } = e.openDb({ applicationName: e.name, database: config.database, logger });
  const clock = () => new Date();
  const workers = e.startWorkers({ db, changes, logger, clock }, config);
  const { app } = e.createApp({ db, config, logger, clock, changes });
  const ops = opsListener(app, config, { service: e.name, ...gauges, heartbeats: workers.heartbeats });
  const server = await listen(ops.listener, config.port, '0.0.0.0', e.portVariable);
  const metricsServer = ops.metricsOnly && config.metrics.port !== null ? await listen(ops.metricsOnly, config.metrics.port, '0.0.0.0', 'METRICS_PORT') : null;
  shutdownOnSignals(
    logger,
    async () => {
      // Draining: /readyz says 503 so the load balancer stops sending, while what still comes is served.
      ops.drain();
      if (config.drainDelayMs > 0) await new Promise((r) => setTimeout(r, config.drainDelayMs));
      // Then no new connections; the requests in flight finish before the workers and the pool stop.
      await Promise.all([closeServer(server), metricsServer && closeServer(metricsServer)]);
      await workers.stop();
      await close();
      // The spans still buffered are sent before the process ends.
      await stopTracing();
    },
    15_000 + config.drainDelayMs,
  );
  logger.info(
    { port: config.port, url: config.publicUrl, metricsPort: config.metrics.port ?? undefined, traces: tracingOn() ? config.tracing.endpoint : undefined },
    `${e.name} listening`,
  );
}

/**
 * What runHost serves in front of a host's app: /metrics (with its token, on this port or
 * `metricsOnly` for a port of its own; not at all with neither), each request counted, and
 * after SIGTERM /readyz answering 503 while the app goes on serving.
 */
export function opsListener(
  app: RequestListener,
  config: Pick<OpsSettings, 'metrics' | 'drainDelayMs'>,
  sources: MetricSources & { service: string },
): { listener: RequestListener; metricsOnly: RequestListener | null; drain(): void } {
  let draining = false;
  const { token, port } = config.metrics;
  const metrics = token !== null || port !== null ? createHostMetrics(sources.service, sources) : null;
  const counted = metrics ? metrics.instrument(app) : app;
  const onMainPort = metrics && port === null ? metricsEndpoint(metrics, token) : null;
  const listener: RequestListener = (req, res) => {
    if (draining) {
      // Each answer closes its connection, so keep-alive clients move to a replica that stays.
      res.setHeader('Connection', 'close');
      if (req.url === '/readyz') {
        res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ error: 'The service is shutting down; requests in flight are being finished.' }));
        return;
      }
    }
    if (onMainPort?.(req, res)) return;
    counted(req, res);
  };
  let metricsOnly: RequestListener | null = null;
  if (metrics && port !== null) {
    const endpoint = metricsEndpoint(metrics, token);
    metricsOnly = (req, res) => {
      if (endpoint(req, res)) return;
      res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: 'This port serves /metrics only.' }));
    };
  }
  return {
    listener,
    metricsOnly,
    drain: () => {
      draining = true;
    },
  };
}

/**
 * A deployable host's entry point: config, workers, app, serve, and on SIGTERM close in
 * order (server, workers, database). A failure to start is printed in one line, exit 1.
 */
export function runHost<C extends HostConfig, D, F>(entry: HostEntry<C, D, F>): void {
  startHost(entry).catch((err: unknown) => {
    process.stderr.write(`${entry.name} failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
