import { signInCodeSentTo } from '@frontdesk/db/testing';
import { TEST_KEY_SEALER } from '@frontdesk/dev-env/both-hosts';
import * as oauth from 'oauth4webapi';
import { SignJWT, generateKeyPair } from 'jose';
import { SigningKeys } from '@frontdesk/oauth';
import { bookHostOnPort, postForm, registerClient, signInAndDecide, type BookHost } from '@frontdesk/dev-env/oauth';
import { cookiesFrom } from '@frontdesk/dev-env/cookie-jar';

let host: BookHost;
let clientId: string;
beforeAll(async () => {
  host = await bookHostOnPort();
  clientId = (await registerClient(host, { redirect_uris: [redirectUri], client_name: 'Refusals' })).client_id as string;
});
afterAll(() => host.close());

const redirectUri = 'http://127.0.0.1:9/callback';
const verifier = oauth.generateRandomCodeVerifier();
type Json = Record<string, any>;

async function authorizeUrl(extra: Record<string, string | undefined> = {}) {
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: 'st-1',
  };
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete params[k];
    else params[k] = v;
  }
  return `${host.url}/authorize?${new URLSearchParams(params).toString()}`;
}
const token = (body: Record<string, string>) =>
  fetch(`${host.url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: clientId, ...body }),
  });
const codeFor = async (email: string) => (await signInAndDecide(host, await authorizeUrl(), email)).searchParams.get('code')!;
const issued = () => host.t.db.selectFrom('oauth_refresh_tokens').select('token_hash').execute();

describe('the authorization server refuses', () => {
  it('an unknown client or an unregistered redirect URI on the page, never redirecting', async () => {
    const unknown = await fetch(await authorizeUrl({ client_id: 'fdc_nobody' }), { redirect: 'manual' });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toMatch(/No application is registered with the id fdc_nobody/);
    const wrongUri = await fetch(await authorizeUrl({ redirect_uri: 'https://evil.example/cb' }), { redirect: 'manual' });
    expect(wrongUri.status).toBe(400);
    expect(wrongUri.headers.get('location')).toBeNull();
    expect(await wrongUri.text()).toMatch(/did not register https:\/\/evil.example\/cb/);
  });

  it.each([
    ['a missing PKCE challenge', { code_challenge: undefined }, 'invalid_request'],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['a scope that does not exist', { scope: 'read admin' }, 'invalid_scope'],
    ['a resource that is not this host', { resource: 'https://other.example/mcp' }, 'invalid_target'],
    ['another response type', { response_type: 'token' }, 'unsupported_response_type'],
  ])('%s, by redirecting with the RFC error, state and iss', async (_what, extra, error) => {
    const res = await fetch(await authorizeUrl(extra), { redirect: 'manual' });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error, state: 'st-1', iss: host.url });
  });

  it('a denial, with access_denied', async () => {
    const back = await signInAndDecide(host, await authorizeUrl(), 'denier@example.com', 'deny');
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'access_denied', state: 'st-1', iss: host.url });
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('a wrong or missing code_verifier, a wrong redirect_uri and an unknown client, issuing nothing', async () => {
    const code = await codeFor('pkce@example.com');
    const before = (await issued()).length;
    for (const [body, error, status] of [
      [{ grant_type: 'authorization_code', code, redirect_uri: redirectUri }, 'invalid_grant', 400],
      [{ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: oauth.generateRandomCodeVerifier() }, 'invalid_grant', 400],
      [{ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:9/other', code_verifier: verifier }, 'invalid_grant', 400],
      [{ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: 'fdc_nobody' }, 'invalid_client', 401],
      [{ grant_type: 'password', username: 'x', password: 'y' }, 'unsupported_grant_type', 400],
    ] as const) {
      const res = await token(body);
      expect(res.status).toBe(status);
      expect(((await res.json()) as Json).error).toBe(error);
    }
    expect((await issued()).length).toBe(before);
    // The code is still good for the right verifier: the refusals consumed nothing.
    expect((await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier })).status).toBe(200);
  });

  it('a replayed code, revoking what it issued', async () => {
    const code = await codeFor('replay@example.com');
    const first = (await (await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier })).json()) as Json;
    const again = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(((await again.json()) as Json).error).toBe('invalid_grant');
    const refresh = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(((await refresh.json()) as Json).error).toBe('invalid_grant');
  });

  it('an expired code', async () => {
    const code = await codeFor('late@example.com');
    await host.t.db
      .updateTable('oauth_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('consumed_at', 'is', null)
      .execute();
    const res = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier });
    expect(((await res.json()) as Json).error_description).toMatch(/expired/);
  });

  it('registration of a secret-holding client gets a public one; a bad redirect URI is refused', async () => {
    const ok = await registerClient(host, { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'client_secret_post' });
    expect(ok.status).toBe(201);
    expect(ok).toMatchObject({ token_endpoint_auth_method: 'none', redirect_uris: ['https://app.example/cb'] });
    expect(ok).not.toHaveProperty('client_secret');
    for (const uris of [['http://app.example/cb'], ['not a uri'], []]) {
      const bad = await registerClient(host, { redirect_uris: uris });
      expect(bad.status).toBe(400);
      expect(['invalid_redirect_uri', 'invalid_client_metadata']).toContain(bad.error);
    }
  });
});

describe('the book host refuses access tokens that are', () => {
  const call = (bearer: string) => fetch(`${host.url}/api/v1/my_bookings`, { headers: { authorization: `Bearer ${bearer}` } });

  it('forged, expired, or for another audience, with 401 invalid_token', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ scope: 'read write', client_id: clientId })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'forged' })
      .setIssuer(host.url)
      .setAudience(`${host.url}/mcp`)
      .setSubject('mallory@example.com')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    const res = await call(forged);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);

    const code = await codeFor('aud@example.com');
    const good = ((await (await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier })).json()) as Json)
      .access_token as string;
    expect((await call(good)).status).toBe(200);
    // Same key, other audience or expired: sign with the server's own key through its store.
    const keys = new SigningKeys(host.t.db, TEST_KEY_SEALER);
    const otherAudience = await keys.sign(
      { iss: host.url, aud: 'https://other.example/mcp', sub: 'aud@example.com', scope: 'read', client_id: clientId, sid: 'some-sign-in' },
      new Date(),
    );
    expect((await call(otherAudience)).status).toBe(401);
    const expired = await keys.sign(
      { iss: host.url, aud: host.url, sub: 'aud@example.com', scope: 'read', client_id: clientId, sid: 'some-sign-in' },
      new Date(Date.now() - 2 * 3600_000),
    );
    expect((await call(expired)).status).toBe(401);
  });
});

describe('CORS for browser-based clients', () => {
  it('answers preflights on metadata, register, token, revoke and /mcp, exposing WWW-Authenticate', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp', '/register', '/token', '/revoke']) {
      const res = await fetch(`${host.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://claude.ai',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, mcp-protocol-version',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization.*MCP-Protocol-Version/);
      expect(res.headers.get('access-control-expose-headers')).toBe('WWW-Authenticate');
    }
    const mcp = await fetch(`${host.url}/mcp`, { method: 'OPTIONS', headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' } });
    expect(mcp.status).toBe(204);
    expect(mcp.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    expect(mcp.headers.get('access-control-expose-headers')).toBe('WWW-Authenticate');
    const unauthorized = await fetch(`${host.url}/mcp`, {
      method: 'POST',
      headers: { origin: 'http://localhost:6274', 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-expose-headers')).toBe('WWW-Authenticate');
    const foreign = await fetch(`${host.url}/mcp`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
  });
});

describe('the sign-in steps of an authorization', () => {
  it('answer 303 to their pages: a reload mails no second code and spends no code, and only the browser that signed in sees them', async () => {
    const email = 'reloader@example.com';
    const requestId = /name="request_id" value="([^"]+)"/.exec(await (await fetch(await authorizeUrl())).text())![1]!;
    const post = (path: string, body: Record<string, string>) => postForm(host, path, body);
    const codes = async () => (await host.t.db.selectFrom('outbox').select('id').where('to_address', '=', email).execute()).length;
    const sent = await post('/authorize/email', { request_id: requestId, email });
    expect(sent.status).toBe(303);
    const codePage = `${host.url}${sent.headers.get('location')}`;
    const cookie = cookiesFrom(sent);
    for (let i = 0; i < 2; i++) expect(await (await fetch(codePage, { headers: { cookie } })).text()).toMatch(/We sent a 6-digit code/);
    expect(await codes()).toBe(1);
    expect(await (await fetch(codePage)).text()).toMatch(/connect again/);
    const verified = await post('/authorize/code', {
      request_id: requestId,
      email,
      code: await signInCodeSentTo(host.t.db, email),
    });
    expect(verified.status).toBe(303);
    const consentPage = `${host.url}${verified.headers.get('location')}`;
    const consentCookie = cookiesFrom(verified);
    for (let i = 0; i < 2; i++) expect(await (await fetch(consentPage, { headers: { cookie: consentCookie } })).text()).toMatch(/asks to:/);
    expect(await (await fetch(consentPage, { headers: { cookie } })).text()).toMatch(/connect again/);
  });
});
