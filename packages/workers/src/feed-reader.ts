import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  FEED_MAX_BYTES,
  FEED_MAX_REDIRECTS,
  FEED_TIMEOUT_SECONDS,
  feedAnswered,
  feedNotPublic,
  feedTimedOut,
  feedTooLarge,
  feedTooManyRedirects,
  feedUnreachable,
} from '@frontdesk/domain';
import type { FeedAnswer, FeedReader } from '@frontdesk/use-cases';
import { NotPublic, outboundGuard } from './outbound-guard';

export interface FeedReaderOptions {
  /** Loopback addresses are allowed (only while the service itself runs on plain http, as for webhooks). */
  allowLoopback: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

/** A hop's answer: a redirect to follow, or the feed's own answer. */
type Hop = { kind: 'redirect'; to: URL } | FeedAnswer;

/**
 * Reads calendar feeds under the webhooks' outbound guard: every address judged at connection
 * (public only, loopback when allowed), each redirect hop judged again (at most
 * FEED_MAX_REDIRECTS, http and https only), one deadline from the first lookup to the last
 * byte, at most FEED_MAX_BYTES read, and a conditional GET (ETag, Last-Modified) so an
 * unchanged feed answers 304 without its body.
 */
export function createFeedReader(o: FeedReaderOptions): FeedReader {
  const guard = outboundGuard(o);
  const timeoutMs = o.timeoutMs ?? FEED_TIMEOUT_SECONDS * 1000;
  const maxBytes = o.maxBytes ?? FEED_MAX_BYTES;
  return {
    async read(url, since) {
      const signal = AbortSignal.timeout(timeoutMs);
      let at: URL;
      try {
        at = new URL(url);
      } catch {
        return { kind: 'failed', reason: feedUnreachable('not an address') };
      }
      for (let hop = 0; hop <= FEED_MAX_REDIRECTS; hop++) {
        const answer = await readOnce(at, { since, signal, guard, maxBytes, timeoutMs });
        if (answer.kind !== 'redirect') return answer;
        at = answer.to;
      }
      return { kind: 'failed', reason: feedTooManyRedirects() };
    },
  };
}

interface HopOptions {
  since: { etag: string | null; lastModified: string | null };
  signal: AbortSignal;
  guard: ReturnType<typeof outboundGuard>;
  maxBytes: number;
  timeoutMs: number;
}

function readOnce(url: URL, o: HopOptions): Promise<Hop> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.resolve({ kind: 'failed', reason: feedUnreachable(`${url.protocol} is not http`) });
  if (o.guard.refusesHost(host)) return Promise.resolve({ kind: 'failed', reason: feedNotPublic(host) });
  const headers: Record<string, string> = { accept: 'text/calendar, */*;q=0.5', 'user-agent': 'FrontDesk-Calendars/1' };
  if (o.since.etag) headers['if-none-match'] = o.since.etag;
  if (o.since.lastModified) headers['if-modified-since'] = o.since.lastModified;
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Hop>((resolve) => {
    const req = request(url, { method: 'GET', headers, lookup: o.guard.lookup, signal: o.signal }, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && status !== 304 && location) {
        res.resume();
        try {
          return resolve({ kind: 'redirect', to: new URL(location, url) });
        } catch {
          return resolve({ kind: 'failed', reason: feedAnswered(status) });
        }
      }
      if (status === 304) {
        res.resume();
        return resolve({ kind: 'unchanged' });
      }
      if (status < 200 || status >= 300) {
        res.resume();
        return resolve({ kind: 'failed', reason: feedAnswered(status) });
      }
      readBody(res, req, o.maxBytes, resolve);
    });
    req.on('error', (err: Error & { code?: string }) => resolve({ kind: 'failed', reason: whyFailed(err, host, o) }));
    req.end();
  });
}

function readBody(res: IncomingMessage, req: { destroy(): void }, maxBytes: number, resolve: (h: Hop) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      res.removeAllListeners('data');
      req.destroy();
      resolve({ kind: 'failed', reason: feedTooLarge(Math.round(maxBytes / (1024 * 1024))) });
    } else chunks.push(chunk);
  });
  res.on('end', () => {
    const header = (name: string) => {
      const v = res.headers[name];
      return typeof v === 'string' && v.length <= 200 ? v : null;
    };
    resolve({ kind: 'read', text: Buffer.concat(chunks).toString('utf8'), etag: header('etag'), lastModified: header('last-modified') });
  });
  res.on('error', () => resolve({ kind: 'failed', reason: feedUnreachable('the answer was cut off') }));
}

function whyFailed(err: Error & { code?: string }, host: string, o: HopOptions): string {
  if (o.signal.aborted || err.name === 'AbortError' || err.name === 'TimeoutError') return feedTimedOut(o.timeoutMs / 1000);
  if (err instanceof NotPublic) return feedNotPublic(host);
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return feedUnreachable(`${host} does not resolve`);
  if (err.code === 'ECONNREFUSED') return feedUnreachable('the connection was refused');
  return feedUnreachable(err.code ?? 'the request failed');
}
