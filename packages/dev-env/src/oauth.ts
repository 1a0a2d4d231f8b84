import * as oauth from 'oauth4webapi';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { TEST_OAUTH_CONFIG } from './pro-desk';
import { closeServer, createLogger, listen } from '@frontdesk/http';
import { freePort } from '@frontdesk/db';
import { createTestDatabase, signInCodeSentTo, type TestDatabase } from '@frontdesk/db/testing';
import { createBookingApp } from '@frontdesk/booking';
import { createProDeskApp, type AppContext as ProDeskContext } from '@frontdesk/pro-desk';
import { cookiesFrom } from './cookie-jar';

/** The book host on a real port whose public URL is that port: OAuth checks the issuer. */
export async function bookHostOnPort(
  clock: { now: Date } = {
    get now() {
      return new Date();
    },
  },
) {
  const t: TestDatabase = await createTestDatabase();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { app } = createBookingApp({
    db: t.db,
    config: {
      publicUrl: url,
      proDeskUrl: 'http://pro.test',
      publicSharedKey: 'fdpub_test_public_key',
      ...TEST_OAUTH_CONFIG,
    },
    logger: createLogger('t', process.env.LOG_LEVEL ?? 'silent'),
    clock: () => clock.now,
  });
  const server = await listen(app, port, '127.0.0.1');
  return {
    t,
    url,
    clock,
    close: async () => {
      await closeServer(server);
      await t.drop();
    },
  };
}

export type BookHost = Awaited<ReturnType<typeof bookHostOnPort>>;

/** The pro host on a real port of a fresh database, its public URL that port, on the real clock (OAuth checks the issuer). */
export async function proHostOnPort(settings: Partial<ProDeskContext['config']> = {}) {
  const t: TestDatabase = await createTestDatabase();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { app } = createProDeskApp({
    db: t.db,
    config: { publicUrl: url, bookingUrl: 'http://book.test', ...TEST_OAUTH_CONFIG, ...settings },
    logger: createLogger('t', process.env.LOG_LEVEL ?? 'silent'),
    clock: () => new Date(),
  });
  const server = await listen(app, port, '127.0.0.1');
  return {
    t,
    url,
    close: async () => {
      await closeServer(server);
      await t.drop();
    },
  };
}

/** Registers a public client at the host (dynamic client registration): the status and what the host answered. */
export async function registerClient(host: Pick<BookHost, 'url'>, metadata: Record<string, unknown>): Promise<{ status: number } & Record<string, any>> {
  const res = await fetch(`${host.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
  return { status: res.status, ...((await res.json()) as Record<string, any>) };
}

const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1];

/** Posts a form of the host's pages as its own page would (same origin), without following the answer. */
export const postForm = (host: Pick<BookHost, 'url'>, path: string, body: Record<string, string>) =>
  fetch(`${host.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: host.url },
    body: new URLSearchParams(body),
  });

/**
 * A person in a browser: opens the authorization URL, signs in with the emailed code and
 * answers the consent page. Returns where the server sends the browser back to.
 */
export async function signInAndDecide(
  host: Pick<BookHost, 'url' | 't'>,
  authorizationUrl: string,
  email: string,
  decision: 'allow' | 'deny' = 'allow',
): Promise<URL> {
  const start = await fetch(authorizationUrl, { redirect: 'manual' });
  if (start.status === 303) return new URL(start.headers.get('location')!);
  const page1 = await start.text();
  if (start.status !== 200) throw new Error(`authorize answered ${start.status}: ${page1}`);
  const requestId = field(page1, 'request_id')!;
  const post = (path: string, body: Record<string, string>) => postForm(host, path, body);
  // Each step answers 303 to its page, handing the request over in a cookie, as a browser follows it.
  const follow = async (res: Response) => {
    expect(res.status).toBe(303);
    const cookie = cookiesFrom(res);
    return (await fetch(`${host.url}${res.headers.get('location')}`, { headers: { cookie } })).text();
  };
  expect(await follow(await post('/authorize/email', { request_id: requestId, email }))).toMatch(/We sent a 6-digit code/);
  const code = await signInCodeSentTo(host.t.db, email);
  const consent = await follow(await post('/authorize/code', { request_id: requestId, email, code }));
  expect(consent).toMatch(/asks to:/);
  const done = await post('/authorize/consent', { request_id: requestId, decision });
  expect(done.status).toBe(303);
  return new URL(done.headers.get('location')!);
}

const redirectUri = 'http://127.0.0.1:9/callback';

/** What an assistant keeps between the redirect and the callback (the official SDK's OAuthClientProvider). */
export class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  get redirectUrl() {
    return redirectUri;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK assistant',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** An access token for the person at `email`, as a public client gets one: authorization code with PKCE, for the host's /mcp. */
export async function oauthTokenFor(host: Pick<BookHost, 'url' | 't'>, email: string, scope = 'read write'): Promise<string> {
  return (await oauthTokensFor(host, email, scope)).access_token;
}

/** The whole token answer of that sign-in: the access token and the refresh token. */
export async function oauthTokensFor(
  host: Pick<BookHost, 'url' | 't'>,
  email: string,
  scope = 'read write',
): Promise<{ access_token: string; refresh_token: string }> {
  const redirectUri = 'http://127.0.0.1:9/callback';
  const verifier = oauth.generateRandomCodeVerifier();
  const auth = new URL(`${host.url}/authorize`);
  auth.search = new URLSearchParams({
    response_type: 'code',
    client_id: 'front-desk',
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    scope,
    resource: `${host.url}/mcp`,
  }).toString();
  const back = await signInAndDecide(host, auth.href, email);
  const res = await fetch(`${host.url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'front-desk',
      code: back.searchParams.get('code')!,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { access_token: string; refresh_token: string };
}

/**
 * A strict OAuth client (oauth4webapi) starting from nothing but a REST 401: it reads the
 * challenge's resource_metadata, requires it to be the well-known URL of the resource it
 * called (the origin) and the document's `resource` to be that resource (RFC 9728 §3.3),
 * finds the authorization server, signs `email` in with PKCE, and calls `path` with the token.
 */
export async function oauthFromRest401(host: Pick<BookHost, 'url' | 't'>, path: string, email: string): Promise<Response> {
  const insecure = { [oauth.allowInsecureRequests]: true };
  const endpoint = new URL(`${host.url}${path}`);
  // The client holds a token the API does not take (expired, say): oauth4webapi reads the 401's challenge.
  const denied = await oauth.protectedResourceRequest('not-a-token', 'GET', endpoint, undefined, undefined, insecure).catch((err: unknown) => err);
  expect(denied).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
  const { cause, response } = denied as oauth.WWWAuthenticateChallengeError;
  expect(response.status).toBe(401);
  const challenge = cause.find((c) => c.scheme === 'bearer')!;
  const resource = new URL(endpoint.origin);
  const discovery = await oauth.resourceDiscoveryRequest(resource, insecure);
  expect(challenge.parameters.resource_metadata).toBe(discovery.url);
  const rs = await oauth.processResourceDiscoveryResponse(resource, discovery);
  const issuer = new URL(rs.authorization_servers![0]!);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oauth2' }));
  const client: oauth.Client = { client_id: 'front-desk', token_endpoint_auth_method: 'none' };
  const redirectUri = 'http://127.0.0.1:9/callback';
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const auth = new URL(as.authorization_endpoint!);
  auth.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    scope: challenge.parameters.scope ?? 'read write',
    // The resource as the document names it (RFC 8707 §2).
    resource: rs.resource,
  }).toString();
  const back = await signInAndDecide(host, auth.href, email);
  const params = oauth.validateAuthResponse(as, client, back, state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, {
      ...insecure,
      additionalParameters: { resource: rs.resource },
    }),
  );
  return oauth.protectedResourceRequest(tokens.access_token, 'GET', endpoint, undefined, undefined, insecure);
}
