import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import {
  WEBHOOK_ANSWER_MAX_BYTES,
  WEBHOOK_TIMEOUT_SECONDS,
  receiverAnswered,
  receiverNotPublic,
  receiverRedirected,
  receiverTimedOut,
  receiverUnreachable,
} from '@frontdesk/domain';
import type { WebhookOutcome, WebhookRequest, WebhookSender } from '@frontdesk/use-cases';
import { Webhook } from 'standardwebhooks';
import { NotPublic, outboundGuard } from './outbound-guard';

export interface WebhookSenderOptions {
  /** Loopback receivers are allowed (only while the service itself runs on plain http). */
  allowLoopback: boolean;
  /** Tests only: a certificate authority to trust besides the system's. */
  ca?: string;
  timeoutMs?: number;
  /** Keep connections open between sends (the worker); a one-off send (test_webhook) does not. */
  keepAlive?: boolean;
}

/** How much of a receiver's answer is kept to show (test_webhook, the dashboard). */
const SHOWN_ANSWER_CHARS = 300;

/**
 * The headers of Standard Webhooks: the id, the time of sending in seconds, and one `v1,` HMAC-SHA256
 * signature over `id.timestamp.body` per secret that signs now (two during a rotation),
 * made by the `standardwebhooks` package itself so any of its verifiers accepts them.
 */
export function signedHeaders(r: Pick<WebhookRequest, 'id' | 'body' | 'secrets'>, at: Date): Record<string, string> {
  const signature = r.secrets.map((s) => new Webhook(s).sign(r.id, at, r.body)).join(' ');
  return { 'webhook-id': r.id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
}

/**
 * Sends webhooks under the same guards as any request made on someone else's word: every
 * address a name resolves to is judged when the connection is made (public addresses only;
 * loopback too when allowed), so a name cannot be pointed elsewhere between a check and the
 * connection; redirects are not followed; one deadline covers lookup to last byte, after which
 * the request is destroyed; and at most WEBHOOK_ANSWER_MAX_BYTES of the answer are read.
 */
export function createWebhookSender(o: WebhookSenderOptions): WebhookSender & { close(): void } {
  const guard = outboundGuard(o);
  const keepAlive = o.keepAlive ?? true;
  const agents = { http: new HttpAgent({ keepAlive, maxSockets: 32 }), https: new HttpsAgent({ keepAlive, maxSockets: 32, ...(o.ca ? { ca: o.ca } : {}) }) };
  const timeoutMs = o.timeoutMs ?? WEBHOOK_TIMEOUT_SECONDS * 1000;
  return {
    async send(r) {
      const url = new URL(r.url);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      // An address written out is never looked up, so it is judged here.
      if (guard.refusesHost(host)) return refused(receiverNotPublic(host));
      // The timestamp is this machine's clock at sending, never the service's business clock: a
      // receiver checks it against its own clock to refuse replays.
      const headers = { 'content-type': 'application/json', 'user-agent': 'FrontDesk-Webhooks/1', ...signedHeaders(r, new Date()) };
      const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const agent = url.protocol === 'https:' ? agents.https : agents.http;
      return new Promise<WebhookOutcome>((resolve) => {
        const signal = AbortSignal.timeout(timeoutMs);
        let answered = false;
        const req = request(url, { method: 'POST', headers, agent, lookup: guard.lookup, signal }, (res) => {
          answered = true;
          readAnswer(res, req, resolve);
        });
        // Once the status is in, the answer is what it says: a body cut off by the deadline is only shown shorter.
        req.on('error', (err) => {
          if (!answered) resolve(refused(whyFailed(err, host, signal.aborted, timeoutMs)));
        });
        req.end(r.body);
      });
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

const refused = (reason: string): WebhookOutcome => ({ ok: false, status: null, reason, answer: '' });

function readAnswer(res: IncomingMessage, req: { destroy(): void }, resolve: (o: WebhookOutcome) => void): void {
  const status = res.statusCode ?? 0;
  const chunks: Buffer[] = [];
  let size = 0;
  const finish = () => {
    const answer = Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\p{Cc}/gu, (c) => (c === '\n' || c === '\t' ? c : ''))
      .slice(0, SHOWN_ANSWER_CHARS);
    if (status >= 200 && status < 300) resolve({ ok: true, status, answer });
    else resolve({ ok: false, status, reason: status >= 300 && status < 400 ? receiverRedirected(status) : receiverAnswered(status), answer });
  };
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= WEBHOOK_ANSWER_MAX_BYTES) chunks.push(chunk);
    else {
      // The rest is not needed: what was read up to the cap is enough to say what the receiver answered.
      chunks.push(chunk.subarray(0, Math.max(0, WEBHOOK_ANSWER_MAX_BYTES - (size - chunk.length))));
      res.removeAllListeners('data');
      req.destroy();
      finish();
    }
  });
  res.on('end', finish);
  res.on('error', finish);
  res.on('close', finish);
}

function whyFailed(err: Error & { code?: string }, host: string, timedOut: boolean, timeoutMs: number): string {
  if (timedOut || err.name === 'AbortError' || err.name === 'TimeoutError') return receiverTimedOut(timeoutMs / 1000);
  if (err instanceof NotPublic) return receiverNotPublic(host);
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return receiverUnreachable(`${host} does not resolve`);
  if (err.code === 'ECONNREFUSED') return receiverUnreachable('the connection was refused');
  if (err.code === 'ECONNRESET') return receiverUnreachable('the connection was closed before an answer');
  if (err.code?.startsWith('ERR_TLS') || err.code?.includes('CERT')) return receiverUnreachable(`its certificate was not accepted (${err.code})`);
  return receiverUnreachable(err.code ?? 'the request failed');
}
