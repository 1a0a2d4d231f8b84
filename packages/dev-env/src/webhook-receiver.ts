import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

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
