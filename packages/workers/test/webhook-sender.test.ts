// The webhook sender's guards (src/webhook-sender.ts), against real servers on this machine.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createWebhookSender } from '../src';

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`;
}

const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const request = (url: string) => ({ url, id: 'evt_pro_x_1', body: '{"kind":"ping"}', secrets: [secret] });

describe('the webhook sender', () => {
  it('signs so that the standardwebhooks verifier accepts it, and reads at most what it needs of the answer', async () => {
    let verified: unknown;
    const url = await serve((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        verified = new Webhook(secret).verify(raw, req.headers as Record<string, string>);
        res.end('x'.repeat(1_000_000));
      });
    });
    const sender = createWebhookSender({ allowLoopback: true });
    const outcome = await sender.send(request(url));
    sender.close();
    expect(verified).toEqual({ kind: 'ping' });
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    // What is shown is the start of the answer, even when its first chunk alone is past the cap.
    expect((outcome as { answer: string }).answer).toMatch(/^x{1,300}$/);
  });

  it('refuses this machine unless allowed, whether named or written out, before connecting', async () => {
    let reached = 0;
    const url = await serve((_req, res) => {
      reached += 1;
      res.end();
    });
    const sender = createWebhookSender({ allowLoopback: false });
    const port = new URL(url).port;
    for (const to of [url, `http://localhost:${port}/in`, `http://[::ffff:127.0.0.1]:${port}/in`]) {
      expect(await sender.send(request(to))).toMatchObject({ ok: false, status: null, reason: expect.stringMatching(/private or local address/) });
    }
    sender.close();
    expect(reached).toBe(0);
  });

  it('does not follow a redirect, and gives up on a receiver that stalls at its deadline', async () => {
    const redirect = await serve((_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest' });
      res.end();
    });
    const stall = await serve(() => {});
    const sender = createWebhookSender({ allowLoopback: true, timeoutMs: 300 });
    expect(await sender.send(request(redirect))).toMatchObject({ ok: false, status: 302, reason: expect.stringMatching(/does not follow redirects/) });
    expect(await sender.send(request(stall))).toMatchObject({ ok: false, status: null, reason: 'The receiver did not answer within 0.3 seconds.' });
    // A 2xx whose body never ends was still received: the deadline only cuts what is shown of it.
    const trickle = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('got it');
    });
    expect(await sender.send(request(trickle))).toEqual({ ok: true, status: 200, answer: 'got it' });
    sender.close();
  });
});
