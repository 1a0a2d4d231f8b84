import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createLogger } from '@frontdesk/http';
import type { Db } from '@frontdesk/db';
import { createWebhookSender, webhookWorker } from '@frontdesk/workers';
import { TEST_KEY_SEALER } from './pro-desk';

/** One request a receiver got: its headers, body, and whether the signature checked out with the secret it was given. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  verified: boolean;
  status: number;
}

/**
 * A real webhook receiver on this machine: it verifies each request with the
 * `standardwebhooks` package and answers what the test scripts (200 unless told), so a test can
 * make it fail, stall or come back.
 */
export class Receiver {
  readonly got: Received[] = [];
  /** Status codes to answer next, in order; then 200. A status of 0 stalls (never answers). */
  script: number[] = [];
  secrets: string[] = [];
  /** How long each answer takes (a slow receiver). */
  delayMs = 0;
  private server!: Server;
  url = '';

  async start(path = '/hooks'): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const verified = this.secrets.some((s) => {
          try {
            new Webhook(s).verify(raw, req.headers as Record<string, string>);
            return true;
          } catch {
            return false;
          }
        });
        const status = this.script.shift() ?? 200;
        this.got.push({ headers: req.headers, body: JSON.parse(raw) as Record<string, unknown>, verified, status });
        if (status === 0) return; // stalls: the sender's deadline has to end it
        setTimeout(() => {
          res.writeHead(status, { 'content-type': 'text/plain' });
          res.end(status < 300 ? 'thanks' : 'not now');
        }, this.delayMs);
      });
    });
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
    return this;
  }

  /** What was acknowledged (answered 2xx), in the order received. */
  acked(): Received[] {
    return this.got.filter((g) => g.status >= 200 && g.status < 300);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server.close(() => done()));
  }
}

/**
 * The webhook worker as a process runs it, on a test's database and clock, with a short deadline
 * for stalled receivers: `tick` delivers what is due now and waits for it; `close` ends its connections.
 */
export function webhookSender(h: { t: { db: Db }; clock: { now: Date } }) {
  const send = createWebhookSender({ allowLoopback: true, timeoutMs: 800 });
  const worker = webhookWorker(h.t.db, {
    sender: send,
    sealer: TEST_KEY_SEALER,
    clock: () => h.clock.now,
    logger: createLogger('webhooks-test', 'silent'),
    wake: () => {},
  });
  return {
    async tick() {
      await worker.run(h.clock.now);
      await worker.drain!();
    },
    close: () => send.close(),
  };
}
