import { lookup } from 'node:dns/promises';
import { request } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { KeptValues } from '@frontdesk/db';
import { oauthWords } from '@frontdesk/domain';
import { checkRedirectUri } from './redirect-uri';

/**
 * Client ID Metadata Documents (MCP authorization 2025-11-25; draft-ietf-oauth-client-id-
 * metadata-document): a client names itself by an https URL, and the document at that URL
 * says its name and where its codes may go. Fetching a URL a stranger names is a server-side
 * request on their behalf, so it is guarded: https only, a path, no credentials; every
 * address the name resolves to must be public (no loopback, private, link-local or
 * multicast range), and the connection goes to the address that was checked, so a second
 * lookup cannot swap in another; 5 KB and 3 seconds at most; answers kept for their max-age
 * (1 minute to 1 day, 5 minutes when unsaid), failures for 30 seconds.
 */
export interface ClientMetadataFetchOptions {
  /** Tests only: documents served from this machine. */
  allowPrivateAddresses?: boolean;
  /** Tests only: a certificate authority to trust besides the system's (a test server's own certificate). */
  ca?: string;
  timeoutMs?: number;
  maxBytes?: number;
}

export interface ClientMetadata {
  clientId: string;
  name: string;
  redirectUris: string[];
}

export class ClientMetadataError extends Error {}

const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** Whether an address is one a document may be fetched from: public unicast only. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is.
  const dotted = family === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined;
  if (dotted) return isPublicAddress(dotted);
  const hex = family === 6 ? /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address) : null;
  if (hex) {
    const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return isPublicAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

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

function get(url: URL, to: { address: string; family: number }, o: Required<Pick<ClientMetadataFetchOptions, 'timeoutMs' | 'maxBytes'>> & { ca?: string }) {
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
        timeout: o.timeoutMs,
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
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
      },
    );
    req.on('timeout', () => req.destroy(new ClientMetadataError(oauthWords.documentTimedOut(o.timeoutMs))));
    req.on('error', (err) =>
      reject(err instanceof ClientMetadataError ? err : new ClientMetadataError(oauthWords.documentNotFetched((err as { code?: string }).code))),
    );
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
  const name = typeof d.client_name === 'string' && d.client_name.trim() ? d.client_name.trim().slice(0, 100) : new URL(clientId).host;
  return { clientId, name, redirectUris };
}

/** The client a metadata URL describes, fetched under the guards above or taken from the cache. */
export async function fetchClientMetadata(clientId: string, o: ClientMetadataFetchOptions = {}, now = Date.now()): Promise<ClientMetadata> {
  const hit = cache.get(clientId, now);
  if (hit) {
    if (hit.value instanceof ClientMetadataError) throw hit.value;
    return hit.value;
  }
  try {
    const url = validUrl(clientId);
    const address = await publicAddressOf(url.hostname, o.allowPrivateAddresses ?? false);
    const { body, cacheControl } = await get(url, address, { timeoutMs: o.timeoutMs ?? 3000, maxBytes: o.maxBytes ?? 5120, ca: o.ca });
    const value = parse(clientId, body);
    cache.keep(clientId, { until: now + maxAgeOf(cacheControl), value });
    return value;
  } catch (err) {
    const failure = err instanceof ClientMetadataError ? err : new ClientMetadataError(oauthWords.documentUnreadable());
    cache.keep(clientId, { until: now + 30_000, value: failure });
    throw failure;
  }
}
