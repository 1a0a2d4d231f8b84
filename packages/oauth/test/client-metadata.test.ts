// Client ID Metadata Documents: the guards on fetching a URL a stranger names (src/client-metadata.ts).
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { localhostCertificate } from '@frontdesk/dev-env/local-site';
import { isPublicAddress } from '@frontdesk/domain';
import { ClientMetadataError, MAX_CONCURRENT_FETCHES, fetchClientMetadata } from '../src';

let server: Server;
let base = '';
let ca = '';
const docs = new Map<string, { status?: number; body: string; delayMs?: number; dripMs?: number }>();
/** How many GETs each path (without its query) received. */
const hits = new Map<string, number>();
/** Paths whose dripped answer the client hung up on. */
const hungUp = new Set<string>();

beforeAll(async () => {
  const pems = await localhostCertificate();
  ca = pems.cert;
  server = createServer(pems, (req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const doc = docs.get(path);
    if (!doc) return res.writeHead(404).end();
    if (doc.dripMs) {
      // One byte at a time, each before the socket's idle timeout could notice.
      res.writeHead(200, { 'content-type': 'application/json' });
      let i = 0;
      const drip = setInterval(() => {
        if (res.destroyed || i >= doc.body.length) {
          clearInterval(drip);
          return void res.end();
        }
        res.write(doc.body[i++]);
      }, doc.dripMs);
      res.on('close', () => {
        clearInterval(drip);
        if (i < doc.body.length) hungUp.add(path);
      });
      return;
    }
    setTimeout(() => res.writeHead(doc.status ?? 200, { 'content-type': 'application/json' }).end(doc.body), doc.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://localhost:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** This machine's test server, trusted by its own certificate. */
const local = () => ({ allowPrivateAddresses: true, ca });
const doc = (path: string, body: unknown, extra: { status?: number; delayMs?: number; dripMs?: number } = {}) => {
  docs.set(path, { body: typeof body === 'string' ? body : JSON.stringify(body), ...extra });
  return `${base}${path}`;
};

describe('client metadata documents', () => {
  it('reads a valid document: its name and redirect URIs', async () => {
    const id = doc('/good.json', { client_id: `${base}/good.json`, client_name: 'Doc Assistant', redirect_uris: ['https://assistant.example/cb'] });
    expect(await fetchClientMetadata(id, local())).toEqual({ clientId: id, name: 'Doc Assistant', redirectUris: ['https://assistant.example/cb'] });
  });

  it.each([
    ['an http URL', 'http://assistant.example/client.json', /must be https/],
    ['a URL without a path', 'https://assistant.example/', /with a path/],
    ['a URL with credentials', 'https://user:pw@assistant.example/c.json', /no credentials/],
  ])('refuses %s before fetching anything', async (_what, id, message) => {
    await expect(fetchClientMetadata(id, local())).rejects.toThrow(message);
  });

  it('refuses this machine and private networks outside tests', async () => {
    const id = doc('/private.json', { client_id: `${base}/private.json`, redirect_uris: ['https://a.example/cb'] });
    await expect(fetchClientMetadata(id, { ca })).rejects.toThrow(/resolves to an address that is not public/);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0.0.0.0',
      // 6to4 (2002:7f00:1:: carries 127.0.0.1), Teredo, NAT64 local use
      '2002:7f00:1::1',
      '2002:a00:1::',
      '2001:0:4136:e378::1',
      '64:ff9b:1::a00:1',
      // IPv4 in the older IPv6 spellings (compatible, mapped written out, SIIT), site-local, documentation
      '::7f00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '::ffff:0:7f00:1',
      'fec0::1',
      '2001:db8::1',
      '100::1',
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      'fe80::1%eth0',
    ]) {
      expect([address, isPublicAddress(address)]).toEqual([address, false]);
    }
    for (const address of ['93.184.215.14', '2606:4700::6810:84e5', '::ffff:93.184.215.14'])
      expect([address, isPublicAddress(address)]).toEqual([address, true]);
  });

  it.each([
    [
      'a client_id that is not its own URL',
      { client_id: 'https://other.example/c.json', redirect_uris: ['https://a.example/cb'] },
      /not the URL it was fetched from/,
    ],
    ['no redirect URIs', { client_id: '<self>', redirect_uris: [] }, /1 to 10 redirect_uris/],
    ['a redirect URI over plain http', { client_id: '<self>', redirect_uris: ['http://a.example/cb'] }, /must use https/],
    [
      'a confidential client',
      { client_id: '<self>', redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'private_key_jwt' },
      /Only public clients/,
    ],
    ['a name that reads as ours', { client_id: '<self>', client_name: 'Fr\u043ent Desk', redirect_uris: ['https://a.example/cb'] }, /imitate "Front Desk"/],
    ['a name with a bidi override', { client_id: '<self>', client_name: 'Helper \u202egnp.exe', redirect_uris: ['https://a.example/cb'] }, /format characters/],
    ['text that is not JSON', 'not json', /is not JSON/],
    ['more than 5 KB', { client_id: '<self>', redirect_uris: ['https://a.example/cb'], padding: 'x'.repeat(6000) }, /larger than 5120 bytes/],
  ])('refuses a document with %s', async (_what, body, message) => {
    const path = `/bad-${Math.random().toString(36).slice(2)}.json`;
    const text = typeof body === 'string' ? body : JSON.stringify(body).replace('<self>', `${base}${path}`);
    await expect(fetchClientMetadata(doc(path, text), local())).rejects.toThrow(message);
  });

  it('gives up on a slow or failing server, and remembers a failure for a while', async () => {
    const slow = doc('/slow.json', { client_id: `${base}/slow.json`, redirect_uris: ['https://a.example/cb'] }, { delayMs: 500 });
    await expect(fetchClientMetadata(slow, { ...local(), timeoutMs: 100 })).rejects.toThrow(/did not arrive within 100 ms/);
    const missing = doc('/gone.json', '{}', { status: 404 });
    await expect(fetchClientMetadata(missing, local())).rejects.toThrow(/answered 404/);
    // Fixed now, but the failure is kept for 30 seconds: no refetch on every request.
    doc('/gone.json', { client_id: missing, redirect_uris: ['https://a.example/cb'] });
    await expect(fetchClientMetadata(missing, local())).rejects.toBeInstanceOf(ClientMetadataError);
    expect((await fetchClientMetadata(missing, local(), Date.now() + 31_000)).clientId).toBe(missing);
  });

  it('refuses a document dripped byte by byte within its total deadline, and closes the connection', async () => {
    const id = `${base}/drip.json`;
    doc('/drip.json', { client_id: id, redirect_uris: ['https://a.example/cb'], padding: 'x'.repeat(400) }, { dripMs: 50 });
    const started = Date.now();
    // Each byte comes well within a socket idle timeout; the whole document would take 25 s.
    await expect(fetchClientMetadata(id, { ...local(), timeoutMs: 500 })).rejects.toThrow(/did not arrive within 500 ms/);
    // Given up at the total deadline, long before the last byte: not a bound a busy machine
    // could blow (1.5 s was), but one no per-byte timeout could meet.
    expect(Date.now() - started).toBeLessThan((docs.get('/drip.json')!.body.length * 50) / 2);
    // The server sees the connection closed: asked until it does (jest's timeout ends a hang).
    while (!hungUp.has('/drip.json')) await new Promise((r) => setTimeout(r, 50));
  });

  it('shares one fetch among callers asking for the same URL at once', async () => {
    const id = doc('/shared.json', { client_id: `${base}/shared.json`, redirect_uris: ['https://a.example/cb'] }, { delayMs: 200 });
    const all = await Promise.all(Array.from({ length: 10 }, () => fetchClientMetadata(id, local())));
    expect(new Set(all.map((d) => d.clientId))).toEqual(new Set([id]));
    expect(hits.get('/shared.json')).toBe(1);
  });

  it('keeps a failure under the URL without its query: other query strings fetch nothing', async () => {
    const path = '/missing-with-queries.json';
    await expect(fetchClientMetadata(`${base}${path}?n=1`, local())).rejects.toThrow(/answered 404/);
    for (let n = 2; n <= 20; n += 1) await expect(fetchClientMetadata(`${base}${path}?n=${n}`, local())).rejects.toThrow(/answered 404/);
    expect(hits.get(path)).toBe(1);
  });

  it(`fetches at most ${MAX_CONCURRENT_FETCHES} documents at once, refusing the rest without a request`, async () => {
    const paths = Array.from({ length: MAX_CONCURRENT_FETCHES + 4 }, (_, i) => `/busy-${i}.json`);
    for (const path of paths) doc(path, { client_id: `${base}${path}`, redirect_uris: ['https://a.example/cb'] }, { delayMs: 300 });
    const settled = await Promise.allSettled(paths.map((path) => fetchClientMetadata(`${base}${path}`, local())));
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(MAX_CONCURRENT_FETCHES);
    const refused = settled.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.map((r) => (r.reason as Error).message)).toEqual(Array(4).fill(expect.stringMatching(/already fetching 16 client metadata documents/)));
    expect(paths.reduce((n, path) => n + (hits.get(path) ?? 0), 0)).toBe(MAX_CONCURRENT_FETCHES);
  });

  it('charges the caller before a fetch, and fetches nothing when the charge is refused', async () => {
    const id = doc('/charged.json', { client_id: `${base}/charged.json`, redirect_uris: ['https://a.example/cb'] });
    await expect(
      fetchClientMetadata(id, {
        ...local(),
        beforeFetch: () => Promise.reject(new Error('over budget')),
      }),
    ).rejects.toThrow('over budget');
    expect(hits.get('/charged.json')).toBeUndefined();
    let charged = 0;
    const charge = { ...local(), beforeFetch: async () => void (charged += 1) };
    await fetchClientMetadata(id, charge);
    await fetchClientMetadata(id, charge);
    expect([charged, hits.get('/charged.json')]).toEqual([1, 1]);
  });
});
