// OAuth on the pro host: assistants that connect only with OAuth sign the owner in here.
import { createBusiness } from '@frontdesk/use-cases';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import * as oauth from 'oauth4webapi';
import { freePort } from '@frontdesk/db';
import { createTestDatabase, signInCodeSentTo, type TestDatabase } from '@frontdesk/db/testing';
import { closeServer, createLogger, listen } from '@frontdesk/http';
import type { Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { localhostCertificate } from '@frontdesk/dev-env/local-site';
import { MemoryProvider, oauthFromRest401, oauthTokenFor, signInAndDecide } from '@frontdesk/dev-env/oauth';
import { TEST_OAUTH_CONFIG } from '@frontdesk/dev-env/pro-desk';
import { createProDeskApp } from '../src';

let t: TestDatabase;
let server: Server;
let url = '';
/** An assistant's own site, serving its client metadata document over https with its own certificate. */
let assistantSite: HttpsServer;
let documentUrl = '';
const owner = 'owner@sunny.example';
let proId = '';
let proKey = '';

beforeAll(async () => {
  const pems = await localhostCertificate();
  assistantSite = createHttpsServer(pems, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        client_id: documentUrl,
        client_name: 'Document Assistant',
        redirect_uris: ['http://127.0.0.1:9/callback'],
        token_endpoint_auth_method: 'none',
      }),
    );
  });
  await new Promise<void>((resolve) => assistantSite.listen(0, '127.0.0.1', resolve));
  documentUrl = `https://localhost:${(assistantSite.address() as AddressInfo).port}/oauth/client.json`;
  t = await createTestDatabase();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const { app } = createProDeskApp({
    db: t.db,
    config: {
      publicUrl: url,
      bookingUrl: 'http://book.test',
      ...TEST_OAUTH_CONFIG,
      // The assistant's site runs on this machine, with a certificate of its own.
      clientDocuments: { allowPrivateAddresses: true, ca: pems.cert },
    },
    logger: createLogger('t', process.env.LOG_LEVEL ?? 'silent'),
    clock: () => new Date(),
  });
  server = await listen(app, port, '127.0.0.1');
  const made = await createBusiness(t.db, { name: 'Sunny Maids', timezone: 'America/New_York', service_zips: ['10001'], owner_email: owner });
  proId = made.pro.id;
  proKey = made.apiKey;
});
afterAll(async () => {
  await new Promise<void>((resolve) => assistantSite.close(() => resolve()));
  await closeServer(server);
  await t.drop();
});

/** A public client's whole sign-in, as an assistant runs it, with the scope it asks for. */
const tokenFor = (email: string, scope: string) => oauthTokenFor({ url, t }, email, scope);

describe('the pro host as an OAuth protected resource', () => {
  it('answers a bare call with a 401 that points at its RFC 9728 metadata, and publishes the metadata of its own authorization server', async () => {
    const bare = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe(
      `Bearer realm="pro-desk", resource_metadata="${url}/.well-known/oauth-protected-resource/mcp", scope="read write"`,
    );
    const resource = (await (await fetch(`${url}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(resource).toMatchObject({ resource: `${url}/mcp`, authorization_servers: [url], scopes_supported: ['read', 'write'] });
    const server = (await (await fetch(`${url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(server).toMatchObject({ issuer: url, authorization_endpoint: `${url}/authorize`, code_challenge_methods_supported: ['S256'] });
  });

  it('lets a strict RFC 9728 client (oauth4webapi) complete from a REST 401: the challenge and the document it points at name the same resource', async () => {
    const res = await oauthFromRest401({ url, t }, '/api/v1/my_business', owner);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { pro_id: string }).pro_id).toBe(proId);
  });

  it('lets the official MCP SDK client connect from a bare 401, sign the owner in by emailed code, and call quote_job', async () => {
    const provider = new MemoryProvider();
    const mcpUrl = new URL(`${url}/mcp`);
    const first = new Client({ name: 'assistant', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
    const auth = provider.authorizationUrl!;
    expect(Object.fromEntries(auth.searchParams)).toMatchObject({ response_type: 'code', code_challenge_method: 'S256', resource: mcpUrl.href });
    const page = await (await fetch(auth.href)).text();
    expect(page).toMatch(/wants to run your cleaning business on Front Desk/);

    const back = await signInAndDecide({ url, t }, auth.href, owner);
    await new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }).finishAuth(back.searchParams.get('code')!);
    const client = new Client({ name: 'assistant', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    const quote = (await client.callTool({ name: 'quote_job', arguments: { bedrooms: 2, bathrooms: 1 } })) as unknown as {
      isError?: boolean;
      structuredContent: { total: number };
    };
    expect(quote.isError).toBeFalsy();
    expect(quote.structuredContent.total).toBe(125);
    const business = (await client.callTool({ name: 'my_business', arguments: {} })) as unknown as { structuredContent: { pro_id: string } };
    expect(business.structuredContent.pro_id).toBe(proId);
    await client.close();
  });

  it('connects a client whose client_id is the URL of its metadata document, with no registration, and holds it to the URIs the document lists', async () => {
    const metadata = (await (await fetch(`${url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    const provider = new (class extends MemoryProvider {
      clientMetadataUrl = documentUrl;
    })();
    const mcpUrl = new URL(`${url}/mcp`);
    await expect(
      new Client({ name: 'assistant', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const auth = provider.authorizationUrl!;
    expect(auth.searchParams.get('client_id')).toBe(documentUrl);
    const page = await (await fetch(auth.href)).text();
    expect(page).toMatch(/<strong>Document Assistant<\/strong> <span class="unverified">/);
    const back = await signInAndDecide({ url, t }, auth.href, owner);
    await new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }).finishAuth(back.searchParams.get('code')!);
    const client = new Client({ name: 'assistant', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    const quote = (await client.callTool({ name: 'quote_job', arguments: { bedrooms: 1, bathrooms: 1 } })) as unknown as {
      structuredContent: { total: number };
    };
    expect(quote.structuredContent.total).toBe(120);
    await client.close();

    const elsewhere = new URL(auth.href);
    elsewhere.searchParams.set('redirect_uri', 'https://evil.example/cb');
    const refused = await fetch(elsewhere.href, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/Document Assistant did not register https:\/\/evil\.example\/cb/);
  });

  it('answers REST the same for the key and for a token, and a read-only token cannot write', async () => {
    const token = await tokenFor(owner, 'read');
    const byKey = await fetch(`${url}/api/v1/quote_job?bedrooms=3&bathrooms=2`, { headers: { authorization: `Bearer ${proKey}` } });
    const byToken = await fetch(`${url}/api/v1/quote_job?bedrooms=3&bathrooms=2`, { headers: { authorization: `Bearer ${token}` } });
    expect([byToken.status, await byToken.json()]).toEqual([byKey.status, await byKey.json()]);
    const write = await fetch(`${url}/api/v1/add_time_off`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ start: '2099-01-02', end: '2099-01-02' }),
    });
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="write"/);
    const full = await tokenFor(owner, 'read write');
    const allowed = await fetch(`${url}/api/v1/add_time_off`, {
      method: 'POST',
      headers: { authorization: `Bearer ${full}`, 'content-type': 'application/json' },
      body: JSON.stringify({ start: '2099-01-02', end: '2099-01-02' }),
    });
    expect(allowed.status).toBe(200);
  });

  it('refuses to sign in an address that owns no business, and a token it did not sign', async () => {
    const auth = new URL(`${url}/authorize`);
    const verifier = oauth.generateRandomCodeVerifier();
    auth.search = new URLSearchParams({
      response_type: 'code',
      client_id: 'front-desk',
      redirect_uri: 'http://127.0.0.1:9/callback',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();
    const email = 'customer@elsewhere.example';
    const requestId = /name="request_id" value="([^"]+)"/.exec(await (await fetch(auth.href)).text())![1]!;
    const form = (path: string, body: Record<string, string>) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
        body: new URLSearchParams(body),
      });
    await form('/authorize/email', { request_id: requestId, email });
    const refused = await form('/authorize/code', { request_id: requestId, email, code: await signInCodeSentTo(t.db, email) });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(
      /No business has signed up with customer@elsewhere.example\. Sign your business up at http:\/\/127\.0\.0\.1:\d+\/signup/,
    );
    expect((await form('/authorize/consent', { request_id: requestId, decision: 'allow' })).status).toBe(400);
    const forged = await fetch(`${url}/api/v1/my_business`, { headers: { authorization: 'Bearer aaa.bbb.ccc' } });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });
});
