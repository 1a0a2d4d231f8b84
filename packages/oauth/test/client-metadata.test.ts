// Client ID Metadata Documents: the guards on fetching a URL a stranger names (src/client-metadata.ts).
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { localhostCertificate } from './local-site';
import { ClientMetadataError, fetchClientMetadata, isPublicAddress } from '../src';

let server: Server;
let base = '';
let ca = '';
const docs = new Map<string, { status?: number; body: string; delayMs?: number }>();

beforeAll(async () => {
  const pems = await localhostCertificate();
  ca = pems.cert;
  server = createServer(pems, (req, res) => {
    const doc = docs.get(req.url ?? '');
    if (!doc) return res.writeHead(404).end();
    setTimeout(() => res.writeHead(doc.status ?? 200, { 'content-type': 'application/json' }).end(doc.body), doc.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://localhost:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** This machine's test server, trusted by its own certificate. */
const local = () => ({ allowPrivateAddresses: true, ca });
const doc = (path: string, body: unknown, extra: { status?: number; delayMs?: number } = {}) => {
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
    ]) {
      expect([address, isPublicAddress(address)]).toEqual([address, false]);
    }
    for (const address of ['93.184.215.14', '2606:4700::6810:84e5']) expect([address, isPublicAddress(address)]).toEqual([address, true]);
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
});
