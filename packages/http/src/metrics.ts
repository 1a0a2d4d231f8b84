import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of one host (prom-client, a registry of its own: `pnpm start` serves
 * both hosts from one process). Every label value comes from a bounded set the code
 * defines: an operation's name, a route pattern, a transport, a status code, a rate-limit
 * policy, a worker's name. Never an id, a key, a path with ids in it, or an address.
 */

/** What a host's database and workers report at each scrape. */
export interface MetricSources {
  pool?: () => { total: number; idle: number; waiting: number };
  backlog?: () => Promise<{
    outboxPending: number;
    outboxOldestSeconds: number;
    outboxAbandoned: number;
    webhooksBehind: number;
    webhookLagSeconds: number;
  }>;
  heartbeats?: () => ReadonlyMap<string, { lastRunMs: number; failures: number }>;
  /** Each read replica (DATABASE_READ_URL) by its place in the list: how far behind at most, and whether it is read now. */
  replicas?: () => readonly { index: number; lagMs: number; fresh: boolean }[];
}

/** What one request did, noted as it runs (by runJudged, the rate limiter) and counted when it ends. */
interface RequestNote {
  transport: 'rest' | 'mcp' | 'page';
  /** performance.now() when the request arrived. */
  started: number;
  operation?: string;
  replayed?: boolean;
  refused?: string;
}

const NOTE = Symbol('frontdesk.metrics');
type Noted = { [NOTE]?: RequestNote };

/** The request's note, when metrics are on (the request's response carries it; Express keeps the same objects). */
const noteOf = (res: object | undefined): RequestNote | undefined => (res as Noted | undefined)?.[NOTE];

/** The operation a request runs (its name from the registry): its metrics' `operation` label. */
export function noteOperation(res: object | undefined, operation: string, replayed = false): void {
  const note = noteOf(res);
  if (!note) return;
  note.operation = operation;
  if (replayed) note.replayed = true;
}

/** A rate limit refused the request: `policy` is the limit's name (reads, writes, sign-in, …). */
export function noteRefusal(res: object | undefined, policy: string): void {
  const note = noteOf(res);
  if (note) note.refused = policy;
}

/** How a request came: the REST API, MCP, or a page (anything else a person's browser asks for). */
function transportOf(url: string): 'rest' | 'mcp' | 'page' {
  if (url.startsWith('/api/')) return 'rest';
  if (url === '/mcp' || url.startsWith('/mcp?') || url.startsWith('/mcp/')) return 'mcp';
  return 'page';
}

/** Probes and scrapes are not requests anyone made of the service: they are left out. */
const UNCOUNTED = new Set(['/healthz', '/readyz', '/metrics']);

/** A route pattern Express matched (`/book/:slug`), never the path itself; `none` when nothing matched. */
function routeOf(req: IncomingMessage): string {
  const route = (req as { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? route.path : 'none';
}

export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface HostMetrics {
  registry: Registry;
  /** Wraps a host's app: each request is timed and counted when its response ends. */
  instrument(app: RequestListener): RequestListener;
  /** The exposition, for GET /metrics. */
  exposition(): Promise<{ contentType: string; body: string }>;
}

export function createHostMetrics(service: string, sources: MetricSources = {}): HostMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const labelNames = ['operation', 'transport', 'status'] as const;
  const requests = new Counter({
    name: 'frontdesk_http_requests_total',
    help: 'Requests answered, by operation (or route pattern), transport and status.',
    labelNames,
    registers,
  });
  const latency = new Histogram({
    name: 'frontdesk_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer ending, by operation, transport and status.',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const replays = new Counter({
    name: 'frontdesk_idempotency_replays_total',
    help: 'Writes answered again from a kept answer (same Idempotency-Key), by operation.',
    labelNames: ['operation'],
    registers,
  });
  const refusals = new Counter({
    name: 'frontdesk_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit (429), by limit and transport.',
    labelNames: ['policy', 'transport'],
    registers,
  });
  const inFlight = new Gauge({ name: 'frontdesk_http_requests_in_flight', help: 'Requests being answered now.', registers });
  gauges(registry, sources);

  const count = (req: IncomingMessage, res: ServerResponse, note: RequestNote) => {
    const { transport, started } = note;
    inFlight.dec();
    const operation = note.operation ?? (transport === 'page' ? routeOf(req) : 'none');
    const status = res.writableFinished ? String(res.statusCode) : 'aborted';
    const labels = { operation, transport, status };
    requests.inc(labels);
    latency.observe(labels, (performance.now() - started) / 1000);
    if (note.replayed) replays.inc({ operation });
    if (note.refused) refusals.inc({ policy: note.refused, transport });
  };

  return {
    registry,
    instrument: (app) => (req, res) => {
      const url = req.url ?? '/';
      const path = url.split('?', 1)[0]!;
      if (UNCOUNTED.has(path)) return app(req, res);
      const note: RequestNote = { transport: transportOf(url), started: performance.now() };
      (res as Noted)[NOTE] = note;
      inFlight.inc();
      res.once('close', () => count(req, res, note));
      return app(req, res);
    },
    exposition: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
}

/** The gauges read at each scrape: the pool, the outbox and webhook backlog, the workers' heartbeats. */
function gauges(registry: Registry, s: MetricSources): void {
  if (s.pool) poolGauges([registry], s.pool);
  if (s.backlog) backlogGauges([registry], s.backlog);
  if (s.heartbeats) workerGauges([registry], s.heartbeats);
  if (s.replicas) replicaGauges([registry], s.replicas);
}

function replicaGauges(registers: Registry[], replicas: NonNullable<MetricSources['replicas']>): void {
  // The label is the replica's place in DATABASE_READ_URL ("0", "1", …): bounded, and no secret.
  new Gauge({
    name: 'frontdesk_db_replica_lag_seconds',
    help: 'How far each read replica is behind the primary, at most (+Inf until measured or while unreachable).',
    labelNames: ['replica'],
    registers,
    collect() {
      for (const r of replicas()) this.set({ replica: String(r.index) }, r.lagMs / 1000);
    },
  });
  new Gauge({
    name: 'frontdesk_db_replica_reads_enabled',
    help: 'Whether searches read each replica now (1) or the primary instead (0: behind the lag bound, unreachable or not a standby).',
    labelNames: ['replica'],
    registers,
    collect() {
      for (const r of replicas()) this.set({ replica: String(r.index) }, r.fresh ? 1 : 0);
    },
  });
}

function poolGauges(registers: Registry[], pool: NonNullable<MetricSources['pool']>): void {
  new Gauge({
    name: 'frontdesk_db_pool_connections',
    help: 'Database pool connections by state: in_use (checked out) or idle.',
    labelNames: ['state'],
    registers,
    collect() {
      const p = pool();
      this.set({ state: 'in_use' }, p.total - p.idle);
      this.set({ state: 'idle' }, p.idle);
    },
  });
  new Gauge({
    name: 'frontdesk_db_pool_waiting',
    help: 'Queries waiting for a database connection.',
    registers,
    collect() {
      this.set(pool().waiting);
    },
  });
}

function backlogGauges(registers: Registry[], backlog: NonNullable<MetricSources['backlog']>): void {
  // One read of the database per scrape, shared by the five gauges. Every replica reports
  // the same numbers (take max() across them); a scrape while the database is away leaves
  // them out rather than failing the whole scrape.
  let pending: Promise<Awaited<ReturnType<typeof backlog>> | null> | null = null;
  const read = () =>
    (pending ??= backlog()
      .catch(() => null)
      .finally(() => setImmediate(() => (pending = null))));
  const backlogGauge = (name: string, help: string, pick: (b: Awaited<ReturnType<typeof backlog>>) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const b = await read();
        if (b) this.set(pick(b));
        else this.reset();
      },
    });
  backlogGauge('frontdesk_outbox_pending', 'Mail waiting in the outbox to be sent (same on every replica).', (b) => b.outboxPending);
  backlogGauge('frontdesk_outbox_oldest_age_seconds', 'Age of the oldest mail waiting in the outbox; 0 when none waits.', (b) => b.outboxOldestSeconds);
  backlogGauge('frontdesk_outbox_abandoned', 'Mail given up on after every attempt failed, not yet purged.', (b) => b.outboxAbandoned);
  backlogGauge('frontdesk_webhook_endpoints_behind', 'Webhook endpoints (not paused) owed at least one event.', (b) => b.webhooksBehind);
  backlogGauge(
    'frontdesk_webhook_delivery_lag_seconds',
    'Age of the oldest event still owed to a webhook endpoint; 0 when none is owed.',
    (b) => b.webhookLagSeconds,
  );
}

function workerGauges(registers: Registry[], heartbeats: NonNullable<MetricSources['heartbeats']>): void {
  new Gauge({
    name: 'frontdesk_worker_last_run_timestamp_seconds',
    help: "When each of this process's workers last finished a tick (Unix time).",
    labelNames: ['worker'],
    registers,
    collect() {
      for (const [worker, beat] of heartbeats()) this.set({ worker }, beat.lastRunMs / 1000);
    },
  });
  new Gauge({
    name: 'frontdesk_worker_failed_runs',
    help: "Ticks of each of this process's workers that failed since it started.",
    labelNames: ['worker'],
    registers,
    collect() {
      for (const [worker, beat] of heartbeats()) this.set({ worker }, beat.failures);
    },
  });
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics, for a bearer of `token` when one is set (compared in constant time); any
 * other request is not its: false, and the caller passes it on.
 */
export function metricsEndpoint(metrics: HostMetrics, token: string | null): (req: IncomingMessage, res: ServerResponse) => boolean {
  const want = token === null ? null : digest(token);
  return (req, res) => {
    const url = req.url ?? '/';
    if (url !== '/metrics' && !url.startsWith('/metrics?')) return false;
    const answer = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      answer(405, JSON.stringify({ error: '/metrics takes GET.' }), { Allow: 'GET', 'Content-Type': 'application/json; charset=utf-8' });
      return true;
    }
    if (want) {
      const given = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!given || !timingSafeEqual(digest(given), want)) {
        answer(401, JSON.stringify({ error: 'Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.' }), {
          'WWW-Authenticate': 'Bearer realm="metrics"',
          'Content-Type': 'application/json; charset=utf-8',
        });
        return true;
      }
    }
    metrics.exposition().then(
      ({ contentType, body }) => answer(200, body, { 'Content-Type': contentType }),
      () => answer(500, JSON.stringify({ error: 'The metrics could not be collected.' }), { 'Content-Type': 'application/json; charset=utf-8' }),
    );
    return true;
  };
}
