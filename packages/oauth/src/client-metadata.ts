import { lookup } from 'node:dns/promises';
import { request } from 'node:https';
import { isIP } from 'node:net';
import { KeptValues } from '@frontdesk/db';
import { isPublicAddress, oauthWords } from '@frontdesk/domain';
import { checkRedirectUri } from './redirect-uri';
import { clientNameProblem } from './client-name';

/**
 * Client ID Metadata Documents (MCP authorization 2025-11-25; draft-ietf-oauth-client-id-
 * metadata-document): a client names itself by an https URL, and the document at that URL
 * says its name and where its codes may go. Fetching a URL a stranger names is a server-side
 * request on their behalf, so it is guarded: https only, a path, no credentials; every
 * address the name resolves to must be public (no loopback, private, link-local, multicast,
 * NAT64, 6to4 or Teredo range), and the connection goes to the address that was checked, so a
 * second lookup cannot swap in another; 5 KB at most, and 3 seconds in all, lookup to last
 * byte, after which the request is destroyed (a server dripping bytes holds nothing longer).
 * One fetch per URL at a time (callers asking meanwhile share it), at most 16 at once in a
 * process (more are refused, not queued), and the caller's own budget is charged before any
 * fetch (`beforeFetch`). Answers are kept for their max-age (1 minute to 1 day, 5 minutes
 * when unsaid), failures for 30 seconds under the URL without its query, so `?n=1`, `?n=2`…
 * do not fetch again.
 */
export interface ClientMetadataFetchOptions {
  /** Tests only: documents served from this machine. */
  allowPrivateAddresses?: boolean;
  /** Tests only: a certificate authority to trust besides the system's (a test server's own certificate). */
  ca?: string;
  /** The whole fetch, lookup to last byte (3000 unless said). */
  timeoutMs?: number;
  maxBytes?: number;
  /**
   * Charged just before a document is fetched (not when it is kept, or already being fetched):
   * the caller's per-address budget, which refuses by throwing.
   */
  beforeFetch?: () => Promise<void>;
}

export interface ClientMetadata {
  clientId: string;
  name: string;
  redirectUris: string[];
}

export class ClientMetadataError extends Error {}

/** Whether a client_id names a metadata document rather than a registered client. */
export const isMetadataUrl = (clientId: string) => clientId.startsWith('https://');

const MAX_CACHED = 1000;
// Documents (and failures) by client_id, each good until its expiry.
const cache = new KeptValues<{ until: number; value: ClientMetadata | ClientMetadataError }, number>(MAX_CACHED, (kept, now) => kept.until > now);

function maxAgeOf(header: string | undefined): number {
  const seconds = Number(/max-age=(\d+)/i.exec(header ?? '')?.[1] ?? 300);
  return Math.min(Math.max(seconds, 60), 86_400) * 1000;
}

function validUrl(clientId: string): URL {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw new ClientMetadataError(oauthWords.clientIdNotUrl());
  }
  if (url.protocol !== 'https:' || url.pathname === '/' || url.username || url.password || url.hash || url.href !== clientId) {
    throw new ClientMetadataError(oauthWords.clientIdUrlShape());
  }
  return url;
}

async function publicAddressOf(host: string, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const bare = host.replace(/^\[|\]$/g, '');
  const found = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true, verbatim: true }).catch(() => []);
  if (found.length === 0) throw new ClientMetadataError(oauthWords.hostDoesNotResolve(host));
  if (!allowPrivate && found.some((a) => !isPublicAddress(a.address))) {
    throw new ClientMetadataError(oauthWords.hostNotPublic(host));
  }
  return found[0]!;
}

/**
 * GETs the document from the checked address. The deadline is the caller's: when it passes,
 * `signal` aborts and the request is destroyed, however the server paces its bytes.
 */
function get(url: URL, to: { address: string; family: number }, o: { maxBytes: number; ca?: string; signal: AbortSignal }) {
  return new Promise<{ body: string; cacheControl: string | undefined }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/json' },
        // Connect to the address that was checked, whatever a second lookup would say.
        lookup: (_host, opts, done) =>
          (opts as { all?: boolean }).all
            ? (done as (e: null, a: { address: string; family: number }[]) => void)(null, [to])
            : (done as (e: null, a: string, f: number) => void)(null, to.address, to.family),
        ...(o.ca ? { ca: o.ca } : {}),
        signal: o.signal,
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          req.destroy();
          return reject(new ClientMetadataError(oauthWords.documentStatus(res.statusCode)));
        }
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          if (Buffer.byteLength(body) > o.maxBytes) {
            req.destroy();
            reject(new ClientMetadataError(oauthWords.documentTooLarge(o.maxBytes)));
          }
        });
        res.on('end', () => resolve({ body, cacheControl: res.headers['cache-control'] }));
        res.on('error', (err) => reject(err));
      },
    );
    req.on('error', (err) => reject(err));
    req.end();
  });
}

function parse(clientId: string, body: string): ClientMetadata {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    throw new ClientMetadataError(oauthWords.documentNotJson());
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new ClientMetadataError(oauthWords.documentNotObject());
  const d = doc as Record<string, unknown>;
  if (d.client_id !== clientId) throw new ClientMetadataError(oauthWords.documentClientIdDiffers());
  if (d.token_endpoint_auth_method !== undefined && d.token_endpoint_auth_method !== 'none') {
    throw new ClientMetadataError(oauthWords.onlyPublicClients());
  }
  if (!Array.isArray(d.redirect_uris) || d.redirect_uris.length === 0 || d.redirect_uris.length > 10) {
    throw new ClientMetadataError(oauthWords.documentRedirectUriCount());
  }
  let redirectUris: string[];
  try {
    redirectUris = d.redirect_uris.map((u) => checkRedirectUri(u));
  } catch (err) {
    throw new ClientMetadataError(oauthWords.documentRedirectUris((err as Error).message));
  }
  const name = typeof d.client_name === 'string' && d.client_name.trim() ? [...d.client_name.trim()].slice(0, 100).join('') : new URL(clientId).host;
  // A document names its client under the same rules as a registration.
  const problem = clientNameProblem(name);
  if (problem) throw new ClientMetadataError(problem);
  return { clientId, name, redirectUris };
}

/** At most this many documents are fetched at once by one process; more are refused, not queued. */
export const MAX_CONCURRENT_FETCHES = 16;
const DEFAULT_TIMEOUT_MS = 3000;
const FAILURE_MS = 30_000;

// Fetches under way, by client_id: a second caller shares the first one's.
const inFlight = new Map<string, Promise<ClientMetadata>>();

/** A failure is kept under the URL without its query: another query string is the same server. */
const failureKey = (clientId: string) => `failed:${clientId.split('?')[0]}`;

/** Fetches and parses a document under one deadline for everything: lookup, connection, every byte. */
async function fetchOnce(clientId: string, url: URL, o: ClientMetadataFetchOptions): Promise<{ value: ClientMetadata; maxAgeMs: number }> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = new AbortController();
  const timedOut = new ClientMetadataError(oauthWords.documentTimedOut(timeoutMs));
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      deadline.abort(timedOut);
      reject(timedOut);
    }, timeoutMs);
  });
  try {
    const work = (async () => {
      const address = await publicAddressOf(url.hostname, o.allowPrivateAddresses ?? false);
      deadline.signal.throwIfAborted();
      return get(url, address, { maxBytes: o.maxBytes ?? 5120, ca: o.ca, signal: deadline.signal });
    })();
    work.catch(() => undefined); // settled after the deadline: nobody listens any more
    const { body, cacheControl } = await Promise.race([work, expired]);
    return { value: parse(clientId, body), maxAgeMs: maxAgeOf(cacheControl) };
  } catch (err) {
    if (deadline.signal.aborted) throw timedOut;
    if (err instanceof ClientMetadataError) throw err;
    throw new ClientMetadataError(oauthWords.documentNotFetched((err as { code?: string }).code));
  } finally {
    clearTimeout(timer);
  }
}

/** The client a metadata URL describes, fetched under the guards above or taken from the cache. */
export async function fetchClientMetadata(clientId: string, o: ClientMetadataFetchOptions = {}, now = Date.now()): Promise<ClientMetadata> {
  const url = validUrl(clientId);
  const hit = cache.get(clientId, now) ?? cache.get(failureKey(clientId), now);
  if (hit) {
    if (hit.value instanceof ClientMetadataError) throw hit.value;
    return hit.value;
  }
  const running = inFlight.get(clientId);
  if (running) return running;
  if (inFlight.size >= MAX_CONCURRENT_FETCHES) throw new ClientMetadataError(oauthWords.documentFetchesBusy(MAX_CONCURRENT_FETCHES));
  // The budget is charged by the caller that fetches; a refusal (a 429) fetches nothing and keeps nothing.
  await o.beforeFetch?.();
  const again = inFlight.get(clientId);
  if (again) return again;
  if (inFlight.size >= MAX_CONCURRENT_FETCHES) throw new ClientMetadataError(oauthWords.documentFetchesBusy(MAX_CONCURRENT_FETCHES));
  const fetching = (async () => {
    try {
      const { value, maxAgeMs } = await fetchOnce(clientId, url, o);
      cache.keep(clientId, { until: now + maxAgeMs, value });
      return value;
    } catch (err) {
      const failure = err instanceof ClientMetadataError ? err : new ClientMetadataError(oauthWords.documentUnreadable());
      cache.keep(failureKey(clientId), { until: now + FAILURE_MS, value: failure });
      throw failure;
    } finally {
      inFlight.delete(clientId);
    }
  })();
  inFlight.set(clientId, fetching);
  return fetching;
}
