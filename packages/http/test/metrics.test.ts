import { createServer, type RequestListener, type Server } from 'node:http';
import { as, startKit, type Kit } from '@frontdesk/dev-env/http-kit';
import { closeServer, opsListener } from '../src';

// What runHost serves in front of a host's app (the kit's here, no database): /metrics only
// with a token or a port of its own, each request counted under its operation and transport,
// and /readyz saying 503 once the host drains. test-e2e/ops.test.ts runs the real hosts.
let kit: Kit;
beforeAll(async () => {
  kit = await startKit();
});
afterAll(() => kit.close());

const TOKEN = 'a-metrics-token-long-enough';

async function serve(listener: RequestListener): Promise<{ url: string; server: Server }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

const sample = (text: string, name: string, labels: Record<string, string>) =>
  text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)))
    .reduce((n, l) => n + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);

describe('/metrics', () => {
  it('is not served with neither a token nor a port: the app answers it, a 404', async () => {
    const ops = opsListener(kit.app, { metrics: { token: null, port: null }, drainDelayMs: 0 }, { service: 'kit' });
    expect(ops.metricsOnly).toBeNull();
    const { url, server } = await serve(ops.listener);
    try {
      const res = await fetch(`${url}/metrics`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toMatch(/frontdesk_/);
    } finally {
      await closeServer(server);
    }
  });

  it('answers the token alone, and counts REST and MCP calls under the operation, never the caller', async () => {
    const ops = opsListener(kit.app, { metrics: { token: TOKEN, port: null }, drainDelayMs: 0 }, { service: 'kit' });
    const { url, server } = await serve(ops.listener);
    try {
      for (const auth of [{}, { authorization: 'Bearer not-the-metrics-token' }, { authorization: TOKEN }] as Record<string, string>[]) {
        const res = await fetch(`${url}/metrics`, { headers: auth });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      }
      expect((await fetch(`${url}/api/v1/echo_query?count=2`, { headers: as('caller_one') })).status).toBe(200);
      expect((await fetch(`${url}/api/v1/echo_query?count=99`, { headers: as('caller_one') })).status).toBe(400);
      expect((await fetch(`${url}/api/v1/echo_query?count=2`)).status).toBe(401);
      const mcp = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: { ...as('caller_two'), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo_query', arguments: { count: 3 } } }),
      });
      expect(mcp.status).toBe(200);
      await fetch(`${url}/healthz`);

      const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      const text = await res.text();
      const requests = 'frontdesk_http_requests_total';
      expect(sample(text, requests, { operation: 'echo_query', transport: 'rest', status: '200', service: 'kit' })).toBe(1);
      expect(sample(text, requests, { operation: 'echo_query', transport: 'rest', status: '400' })).toBe(1);
      expect(sample(text, requests, { operation: 'none', transport: 'rest', status: '401' })).toBe(1);
      expect(sample(text, requests, { operation: 'echo_query', transport: 'mcp', status: '200' })).toBe(1);
      expect(sample(text, 'frontdesk_http_request_duration_seconds_count', { operation: 'echo_query', transport: 'mcp' })).toBe(1);
      // Probes are not requests anyone made; callers never appear.
      expect(text).not.toMatch(/healthz|caller_one|caller_two/);
      expect(text).toMatch(/^process_cpu_user_seconds_total\{service="kit"\} /m);
    } finally {
      await closeServer(server);
    }
  });

  it('on a port of its own: that listener serves /metrics and nothing else, the main one none', async () => {
    const ops = opsListener(kit.app, { metrics: { token: null, port: 1 }, drainDelayMs: 0 }, { service: 'kit' });
    const main = await serve(ops.listener);
    const own = await serve(ops.metricsOnly!);
    try {
      expect((await fetch(`${main.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${own.url}/metrics`)).status).toBe(200);
      expect((await fetch(`${own.url}/api/v1/echo_query?count=2`, { headers: as('c') })).status).toBe(404);
      expect((await fetch(`${own.url}/metrics`, { method: 'POST' })).status).toBe(405);
    } finally {
      await closeServer(main.server);
      await closeServer(own.server);
    }
  });
});

describe('draining', () => {
  it('turns /readyz to 503 and closes each answer’s connection, while the app goes on serving', async () => {
    const ops = opsListener(kit.app, { metrics: { token: null, port: null }, drainDelayMs: 0 }, { service: 'kit' });
    const { url, server } = await serve(ops.listener);
    try {
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      ops.drain();
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('connection')).toBe('close');
      expect(((await ready.json()) as { error: string }).error).toMatch(/shutting down/);
      const alive = await fetch(`${url}/healthz`);
      expect(alive.status).toBe(200);
      expect(alive.headers.get('connection')).toBe('close');
      expect((await fetch(`${url}/api/v1/echo_query?count=2`, { headers: as('c') })).status).toBe(200);
    } finally {
      await closeServer(server);
    }
  });
});
