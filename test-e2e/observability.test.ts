import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import parsePrometheus, { type Family } from 'parse-prometheus-text-format';
import { parse } from 'yaml';
import { createDatabase, dropDatabase, freePort } from '@frontdesk/db';
import { ROOT, startService, type RunningService } from './helpers';

// docker compose's observability profile, checked without a Docker engine: Prometheus scrapes
// both hosts where they serve /metrics, Grafana is provisioned with the dashboard in infra/,
// and every metric and label the dashboard's and the alerts' PromQL names is one a running
// host serves (its /metrics scraped here).
jest.setTimeout(180_000);

const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');
const compose = parse(read('docker-compose.yml'), { merge: true });
const services = compose.services as Record<string, any>;
const prometheus = parse(read('infra/prometheus/prometheus.yml'));
const alerts = parse(read('infra/prometheus/alerts.yml'));
const dashboard = JSON.parse(read('infra/grafana/dashboards/front-desk.json'));
const datasources = parse(read('infra/grafana/provisioning/datasources/prometheus.yml'));
const providers = parse(read('infra/grafana/provisioning/dashboards/front-desk.yml'));

/** The `${NAME:-default}` default, or the value itself. */
const valueOf = (v: string) => /^\$\{\w+:-(.*)\}$/.exec(v)?.[1] ?? v;
/** A bind mount's host file (from the repository root) for a path in the container. */
function mountedAt(service: string, target: string): string | undefined {
  for (const v of services[service].volumes as string[]) {
    const [source, inside] = v.split(':');
    if (inside === target && source!.startsWith('./')) return source!.slice(2);
  }
  return undefined;
}

interface Panel {
  type: string;
  title: string;
  datasource?: { uid: string };
  targets?: Array<{ expr: string; datasource?: { uid: string } }>;
}
const panels = (dashboard.panels as Panel[]).filter((p) => p.type !== 'row');
const dashboardExprs = panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
const alertExprs = (alerts.groups as Array<{ rules: Array<{ expr: string }> }>).flatMap((g) => g.rules.map((r) => r.expr));

// PromQL's words that are not metrics: functions, aggregations, keywords.
const PROMQL_WORDS = new Set([
  'sum',
  'max',
  'min',
  'avg',
  'count',
  'topk',
  'bottomk',
  'rate',
  'irate',
  'increase',
  'histogram_quantile',
  'time',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
]);

/** The metric names and the label names a PromQL expression uses. */
function namesIn(expr: string): { metrics: string[]; labels: string[] } {
  const labels: string[] = [];
  let rest = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  rest = rest.replace(/\{([^}]*)\}/g, (_, inner: string) => {
    for (const m of inner.matchAll(/([a-zA-Z_]\w*)\s*(=~|!~|!=|=)/g)) labels.push(m[1]!);
    return ' ';
  });
  rest = rest.replace(/\b(by|without|on|ignoring)\s*\(([^)]*)\)/g, (_, _word: string, inner: string) => {
    labels.push(
      ...inner
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean),
    );
    return ' ';
  });
  rest = rest.replace(/\[[^\]]*\]/g, ' ');
  const metrics = [...rest.matchAll(/[a-zA-Z_:][\w:]*/g)].map((m) => m[0]).filter((w) => !PROMQL_WORDS.has(w));
  return { metrics, labels };
}

describe('the observability profile', () => {
  it('adds Prometheus and Grafana to compose under one profile, published on this machine only, leaving `up` as it was', () => {
    for (const name of ['prometheus', 'grafana']) {
      expect(services[name].profiles).toEqual(['observability']);
      for (const port of services[name].ports as string[]) expect(port).toMatch(/^127\.0\.0\.1:/);
      // Pinned releases, not whatever `latest` is on the day.
      expect(services[name].image).toMatch(/:v?\d+\.\d+\.\d+$/);
    }
    for (const name of ['postgres', 'mailpit', 'migrate', 'pro-desk', 'booking']) expect(services[name].profiles).toBeUndefined();
    expect(services.grafana.depends_on.prometheus.condition).toBe('service_started');
  });

  it('has Prometheus scrape each host on the port where that host serves /metrics, inside the network', () => {
    const config = mountedAt('prometheus', '/etc/prometheus/prometheus.yml');
    expect(config).toBe('infra/prometheus/prometheus.yml');
    expect(services.prometheus.command).toContain('--config.file=/etc/prometheus/prometheus.yml');
    const jobs = Object.fromEntries(
      (prometheus.scrape_configs as Array<{ job_name: string; metrics_path: string; static_configs: Array<{ targets: string[] }> }>).map((j) => [
        j.job_name,
        { path: j.metrics_path, targets: j.static_configs.flatMap((c) => c.targets) },
      ]),
    );
    for (const host of ['pro-desk', 'booking']) {
      const port = valueOf(services[host].environment.METRICS_PORT);
      expect(jobs[host]).toEqual({ path: '/metrics', targets: [`${host}:${port}`] });
      // Not published: only compose's network reaches it.
      expect((services[host].ports as string[]).some((p) => p.endsWith(`:${port}`))).toBe(false);
    }
    // The alert rules it loads are the file compose mounts.
    expect(prometheus.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
    expect(mountedAt('prometheus', '/etc/prometheus/alerts.yml')).toBe('infra/prometheus/alerts.yml');
  });

  it('provisions Grafana with the Prometheus data source and the dashboard in infra/, every panel on that source', () => {
    expect(mountedAt('grafana', '/etc/grafana/provisioning')).toBe('infra/grafana/provisioning');
    const [source] = datasources.datasources as Array<{ uid: string; url: string; type: string }>;
    expect(source).toMatchObject({ type: 'prometheus', url: 'http://prometheus:9090' });
    const [provider] = providers.providers as Array<{ options: { path: string } }>;
    const folder = mountedAt('grafana', provider!.options.path);
    expect(folder).toBe('infra/grafana/dashboards');
    expect(existsSync(resolve(ROOT, folder!, 'front-desk.json'))).toBe(true);
    expect(services.grafana.environment.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH).toBe(`${provider!.options.path}/front-desk.json`);
    for (const p of panels) {
      expect([p.title, p.datasource?.uid]).toEqual([p.title, source!.uid]);
      for (const t of p.targets ?? []) expect([p.title, t.datasource?.uid]).toEqual([p.title, source!.uid]);
    }
  });

  it('shows requests, latency, errors, outbox depth and age, and webhook lag', () => {
    const uses = (metric: string) => panels.filter((p) => (p.targets ?? []).some((t) => namesIn(t.expr).metrics.includes(metric))).map((p) => p.title);
    expect(uses('frontdesk_http_requests_total')).toEqual(expect.arrayContaining(['Requests per second', '5xx share']));
    expect(uses('frontdesk_http_request_duration_seconds_bucket')).toContain('Latency p50 and p99');
    expect(uses('frontdesk_outbox_pending')).toEqual(['Outbox depth']);
    expect(uses('frontdesk_outbox_oldest_age_seconds')).toEqual(['Oldest unsent mail']);
    expect(uses('frontdesk_webhook_delivery_lag_seconds')).toEqual(['Webhook lag']);
    expect(dashboardExprs.some((e) => /status=~"5\.\."/.test(e))).toBe(true);
  });

  it("holds the README's three alerts, each as the README writes it", () => {
    const readme = read('README.md');
    const written = [...readme.matchAll(/^\|[^|\n]*\| `([^`]+)` *\| *(\d+m) *\|$/gm)].map((m) => m[1]!.replace(/\\\|/g, '|'));
    expect(written).toHaveLength(3);
    expect(alertExprs.sort()).toEqual([...written].sort());
  });
});

describe('the metrics the dashboard and the alerts name', () => {
  const admin = () => process.env.FD_TEST_ADMIN_URL!;
  const name = `fd_observe_${randomBytes(4).toString('hex')}`;
  const running: RunningService[] = [];
  afterAll(async () => {
    for (const r of running) await r.stop();
    await dropDatabase(admin(), name);
  });

  /** A pro-desk host's own /metrics, after a request answered, a 401 and a 429, so labelled series are there. */
  async function scrapeHost(): Promise<Family[]> {
    const url = await createDatabase(admin(), name, process.env.FD_TEST_TEMPLATE);
    const [port, metricsPort] = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${port}`;
    const env = { DATABASE_URL: url, PRO_DESK_PORT: String(port), METRICS_PORT: String(metricsPort), RATE_LIMIT_AUTH_FAILURES_PER_IP: '1' };
    running.push(await startService('services/pro-desk/src/main.ts', env, `${base}/readyz`));
    for (let i = 0; i < 2; i++) await fetch(`${base}/api/v1/quote_job?bedrooms=1&bathrooms=1`, { headers: { Authorization: 'Bearer fdk_not_a_key' } });
    await fetch(`${base}/signup`);
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    return parsePrometheus(await res.text());
  }

  it('are every one served by a running host, with those labels', async () => {
    const families = await scrapeHost();
    const served = new Set<string>();
    const labels = new Set(['le', 'job', 'instance']);
    for (const f of families) {
      served.add(f.name);
      if (f.type === 'HISTOGRAM') for (const s of ['_bucket', '_sum', '_count']) served.add(`${f.name}${s}`);
      if (f.type === 'SUMMARY') for (const s of ['_sum', '_count']) served.add(`${f.name}${s}`);
      for (const m of f.metrics) for (const l of Object.keys(m.labels ?? {})) labels.add(l);
    }
    for (const l of ['service', 'operation', 'transport', 'status', 'policy', 'state', 'worker']) expect([l, labels.has(l)]).toEqual([l, true]);
    const exprs = [...dashboardExprs, ...alertExprs];
    expect(exprs.length).toBeGreaterThan(15);
    for (const expr of exprs) {
      const used = namesIn(expr);
      expect(used.metrics.length).toBeGreaterThan(0);
      for (const m of used.metrics) expect([expr, m, served.has(m)]).toEqual([expr, m, true]);
      for (const l of used.labels) expect([expr, l, labels.has(l)]).toEqual([expr, l, true]);
    }
  });

  it('are read from the expressions by a reader that does catch a misspelt one', () => {
    expect(namesIn('sum by (service) (rate(frontdesk_http_request_total{status=~"5.."}[5m]))')).toEqual({
      metrics: ['frontdesk_http_request_total'],
      labels: ['status', 'service'],
    });
    expect(namesIn('time() - max by (worker) (frontdesk_worker_last_run_timestamp_seconds)').metrics).toEqual(['frontdesk_worker_last_run_timestamp_seconds']);
  });
});
