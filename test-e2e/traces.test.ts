import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createBusiness } from '@frontdesk/use-cases';
import { DEFAULT_WEEKLY_HOURS } from '@frontdesk/domain';
import { createDatabase, createDb, dropDatabase, freePort, migrateDatabase, type Db } from '@frontdesk/db';
import { ROOT, TEST_KEY_ENCRYPTION_KEY } from './helpers';

// A booking's trace, as the people who run Front Desk would see it in their tracing backend:
// a real pro-desk process (test-e2e/traced-host.ts: its entry point, its spans kept in memory
// instead of sent over OTLP) books over REST with a W3C traceparent header and over MCP with
// `_meta.traceparent`. The HTTP, operation and SQL spans are in the caller's trace, and no
// attribute carries what the customer typed. With no endpoint set, no OpenTelemetry SDK loads.
jest.setTimeout(180_000);

const admin = () => process.env.FD_TEST_ADMIN_URL!;
let name: string;
let url: string;
let db: Db;
let key: string;
beforeAll(async () => {
  name = `fd_traces_${randomBytes(4).toString('hex')}`;
  url = await createDatabase(admin(), name);
  await migrateDatabase(url);
  db = createDb(url, { maxConnections: 2 });
  key = (await createBusiness(db, { name: 'Traced Cleaning', timezone: 'America/New_York', service_zips: ['10001'], weekly_hours: DEFAULT_WEEKLY_HOURS }))
    .apiKey;
});
afterAll(async () => {
  await db.destroy();
  await dropDatabase(admin(), name);
});

interface SeenSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
  events: { name: string; attributes?: Record<string, unknown> }[];
  links: { traceId: string; spanId: string }[];
}
interface Report {
  on: boolean;
  loaded: number;
  spans: SeenSpan[];
}

interface TracedHost {
  base: string;
  report(): Promise<Report>;
  stop(): Promise<void>;
}

/** The pro-desk host of traced-host.ts over this file's database, with `env` besides. */
async function tracedHost(env: Record<string, string>): Promise<TracedHost> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'test-e2e/traced-host.ts'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY, DATABASE_URL: url, PRO_DESK_PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`traced host exited early: ${out}`);
    if (
      await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`traced host did not become ready: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    report: () =>
      new Promise<Report>((res) => {
        child.once('message', (m) => res(m as Report));
        child.send('spans');
      }),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

let day = 0;
/** 10:00 in New York on a weekday, a different one each time. */
function nextStart(): string {
  let d: Date;
  do d = new Date(Date.UTC(2031, 5, 2 + day++, 14, 0));
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6);
  return d.toISOString();
}
const PHONE = '212 555 0147';
const EMAIL = 'rosa.traced@example.com';
const booking = () => ({
  bedrooms: 1,
  bathrooms: 1,
  start: nextStart(),
  customer_name: 'Rosa Traced',
  customer_phone: PHONE,
  customer_email: EMAIL,
  address: '17 Traced Street',
  zip: '10001',
});

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
/** A caller's span context, as a W3C traceparent (sampled). */
const caller = () => {
  const traceId = hex(16);
  const spanId = hex(8);
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
};

/** Every value any span carries, in attributes, status and events, as one text to search. */
const everything = (spans: SeenSpan[]) => JSON.stringify(spans.map((s) => [s.name, s.attributes, s.status, s.events]));

/** Spans of a trace, until the request's HTTP span has ended (the answer is sent a moment before it ends). */
async function traceOf(host: TracedHost, traceId: string, until: (spans: SeenSpan[]) => boolean): Promise<SeenSpan[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const spans = (await host.report()).spans.filter((s) => s.traceId === traceId);
    if (until(spans) || Date.now() > deadline) return spans;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const isSql = (s: SeenSpan) => s.attributes['db.system.name'] === 'postgresql' || s.attributes['db.system'] === 'postgresql';
const sqlText = (s: SeenSpan) => {
  const text = s.attributes['db.query.text'] ?? s.attributes['db.statement'];
  return typeof text === 'string' ? text : '';
};

describe('traces', () => {
  let host: TracedHost;
  beforeAll(async () => {
    // The endpoint turns tracing on, as in production; the harness keeps the spans instead of sending them there.
    host = await tracedHost({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
  });
  afterAll(async () => {
    await host?.stop();
  });

  it("over REST: the HTTP, operation and SQL spans are one trace, the caller's, and carry no value the caller sent", async () => {
    const { traceId, spanId, traceparent } = caller();
    const res = await fetch(`${host.base}/api/v1/book_job`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', traceparent, 'Idempotency-Key': `trace-${hex(6)}` },
      body: JSON.stringify(booking()),
    });
    expect(res.status).toBe(200);
    const spans = await traceOf(host, traceId, (ss) => ss.some((s) => s.parentSpanId === spanId));

    const http = spans.find((s) => s.parentSpanId === spanId);
    expect(http).toMatchObject({
      kind: 1 /* SERVER */,
      attributes: expect.objectContaining({ 'http.request.method': 'POST', 'http.response.status_code': 200 }),
    });
    expect(http!.name).toBe('POST /api/v1/book_job');
    const op = spans.find((s) => s.name === 'op book_job');
    expect(op?.attributes).toMatchObject({ 'frontdesk.operation': 'book_job', 'frontdesk.read_only': false, 'frontdesk.replayed': false });
    // The operation's span is inside the HTTP one, through Express's spans.
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const ancestors = (s: SeenSpan) => {
      const up: SeenSpan[] = [];
      for (let p = byId.get(s.parentSpanId ?? ''); p; p = byId.get(p.parentSpanId ?? '')) up.push(p);
      return up;
    };
    expect(ancestors(op!)).toContain(http);
    // The booking's statements are the operation's children, in their parametrized text.
    const sql = spans.filter(isSql);
    const inOp = sql.filter((s) => ancestors(s).includes(op!));
    expect(inOp.length).toBeGreaterThan(2);
    expect(inOp.map(sqlText).join('\n')).toMatch(/insert into "bookings"/i);
    expect(inOp.map(sqlText).join('\n')).toMatch(/\$1/);

    // Nothing the customer typed, the key, or the raw query, in any span of the trace.
    const text = everything(spans);
    for (const secret of [PHONE, '2125550147', EMAIL, 'Rosa Traced', '17 Traced Street', key]) expect([secret, text.includes(secret)]).toEqual([secret, false]);
  });

  it('a refusal marks the operation span by the error class, never by its sentence (which quotes the input)', async () => {
    const { traceId, spanId, traceparent } = caller();
    const asked = `bk_${hex(8)}`;
    const res = await fetch(`${host.base}/api/v1/cancel_job`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', traceparent },
      body: JSON.stringify({ booking_id: asked }),
    });
    expect(res.status).toBe(404);
    expect(JSON.stringify(await res.json())).toContain(asked);
    const spans = await traceOf(host, traceId, (ss) => ss.some((s) => s.parentSpanId === spanId));
    const op = spans.find((s) => s.name === 'op cancel_job');
    expect(op?.status).toEqual({ code: 2 /* ERROR */, message: 'NotFoundError' });
    expect(everything(spans)).not.toContain(asked);
  });

  it('over REST: a query string keeps its names, not its values', async () => {
    const { traceId, spanId, traceparent } = caller();
    const res = await fetch(`${host.base}/api/v1/quote_job?bedrooms=3&bathrooms=2`, { headers: { Authorization: `Bearer ${key}`, traceparent } });
    expect(res.status).toBe(200);
    const spans = await traceOf(host, traceId, (ss) => ss.some((s) => s.parentSpanId === spanId));
    const http = spans.find((s) => s.parentSpanId === spanId)!;
    expect(http.attributes).toMatchObject({ 'url.path': '/api/v1/quote_job', 'url.query': 'bedrooms=REDACTED&bathrooms=REDACTED' });
    expect(spans.map((s) => s.name)).toContain('op quote_job');
  });

  it("over MCP: the tool call's span, its operation and its SQL join the trace in _meta.traceparent, linked to the HTTP request's", async () => {
    const { traceId, spanId, traceparent } = caller();
    const V = '2026-07-28';
    const res = await fetch(`${host.base}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': V,
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'book_job',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          _meta: { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {}, traceparent },
          name: 'book_job',
          arguments: booking(),
        },
      }),
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { result?: { isError?: boolean; structuredContent?: { booking_id?: string } } };
    expect(answer.result?.isError).toBeFalsy();
    expect(answer.result?.structuredContent?.booking_id).toMatch(/^bk_/);

    const spans = await traceOf(host, traceId, (ss) => ss.some((s) => s.parentSpanId === spanId));
    const call = spans.find((s) => s.parentSpanId === spanId);
    expect(call).toMatchObject({ name: 'tools/call book_job', kind: 1, attributes: { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'book_job' } });
    const op = spans.find((s) => s.name === 'op book_job');
    expect(op?.parentSpanId).toBe(call!.spanId);
    const sql = spans.filter((s) => isSql(s) && s.parentSpanId === op!.spanId);
    expect(sql.map(sqlText).join('\n')).toMatch(/insert into "bookings"/i);
    // The HTTP request (no traceparent header) began a trace of its own: the tool call links into it.
    expect(call!.links).toHaveLength(1);
    const linked = call!.links[0]!.traceId;
    expect(linked).not.toBe(traceId);
    const http = (await traceOf(host, linked, (ss) => ss.some((s) => s.name === 'POST /mcp'))).find((s) => s.name === 'POST /mcp');
    expect([http?.kind, http?.parentSpanId]).toEqual([1, undefined]);
    const text = everything([...spans, http!]);
    for (const secret of [PHONE, '2125550147', EMAIL, 'Rosa Traced', '17 Traced Street', key]) expect([secret, text.includes(secret)]).toEqual([secret, false]);
  });

  it('over MCP: with the same traceparent in the header and in _meta, the HTTP span is in that trace too', async () => {
    const { traceId, spanId, traceparent } = caller();
    const res = await fetch(`${host.base}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', traceparent },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { _meta: { traceparent }, name: 'quote_job', arguments: { bedrooms: 2, bathrooms: 1 } },
      }),
    });
    expect(res.status).toBe(200);
    const spans = await traceOf(host, traceId, (ss) => ss.some((s) => s.name === 'POST /mcp'));
    const http = spans.find((s) => s.name === 'POST /mcp');
    expect(http?.parentSpanId).toBe(spanId);
    const call = spans.find((s) => s.name === 'tools/call quote_job');
    expect(call?.parentSpanId).toBe(spanId);
    expect(call?.links).toEqual([]);
    expect(spans.map((s) => s.name)).toContain('op quote_job');
  });

  it('probes and scrapes are not traced', async () => {
    const before = (await host.report()).spans.length;
    expect((await fetch(`${host.base}/readyz`)).status).toBe(200);
    expect((await fetch(`${host.base}/healthz`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    const after = (await host.report()).spans.slice(before);
    expect(after.filter((s) => s.kind === 1).map((s) => s.name)).toEqual([]);
  });
});

describe('with no OTLP endpoint', () => {
  it("loads none of OpenTelemetry's SDK or instrumentations and makes no span, a traceparent header or not", async () => {
    const host = await tracedHost({});
    try {
      const { traceparent } = caller();
      const res = await fetch(`${host.base}/api/v1/book_job`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', traceparent },
        body: JSON.stringify(booking()),
      });
      expect(res.status).toBe(200);
      expect(await host.report()).toEqual({ on: false, loaded: 0, spans: [] });
    } finally {
      await host.stop();
    }
  });
});
