import * as oauth from 'oauth4webapi';
import { oauthFromRest401, bookHostOnPort, signInAndDecide, type BookHost } from '@frontdesk/dev-env/oauth';

let host: BookHost;
beforeAll(async () => {
  host = await bookHostOnPort();
});
afterAll(() => host.close());

const insecure = { [oauth.allowInsecureRequests]: true };
const redirectUri = 'http://127.0.0.1:9/callback';

async function discover() {
  // From the MCP URL alone: its protected-resource metadata names the authorization server.
  const resource = new URL(`${host.url}/mcp`);
  const rs = await oauth.processResourceDiscoveryResponse(resource, await oauth.resourceDiscoveryRequest(resource, insecure));
  expect(rs).toMatchObject({ resource: resource.href, scopes_supported: ['read', 'write'], bearer_methods_supported: ['header'] });
  const issuer = new URL(rs.authorization_servers![0]!);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oauth2' }));
  expect(as).toMatchObject({
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    client_id_metadata_document_supported: true,
  });
  return { as, resource };
}

async function register(as: oauth.AuthorizationServer) {
  const res = await oauth.dynamicClientRegistrationRequest(
    as,
    { redirect_uris: [redirectUri], client_name: 'Conformance client', token_endpoint_auth_method: 'client_secret_basic' },
    insecure,
  );
  expect(res.status).toBe(201);
  const client = await oauth.processDynamicClientRegistrationResponse(res);
  expect(client.token_endpoint_auth_method).toBe('none');
  expect(client.redirect_uris).toEqual([redirectUri]);
  return client;
}

async function authorize(as: oauth.AuthorizationServer, client: oauth.Client, resource: URL, email: string, extra: Record<string, string> = {}) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    resource: resource.href,
    ...extra,
  }).toString();
  const back = await signInAndDecide(host, url.href, email);
  return { back, verifier, state };
}

describe('OAuth 2.0 on the book host, driven by oauth4webapi', () => {
  it('completes from a REST 401 alone: the challenge and the document it points at name the same resource (RFC 9728 §3.3)', async () => {
    const res = await oauthFromRest401(host, '/api/v1/my_bookings', 'rest@example.com');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ count: 0, bookings: [] });
    // /mcp keeps its own metadata, whose resource is /mcp.
    const mcp = await fetch(`${host.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(mcp.headers.get('www-authenticate')).toContain(`resource_metadata="${host.url}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('discovers, registers, authorizes with PKCE, calls my_bookings, refreshes, detects reuse and revokes', async () => {
    const { as, resource } = await discover();
    const client = await register(as);
    const { back, verifier, state } = await authorize(as, client, resource, 'Kim@Example.com');
    expect(back.searchParams.get('iss')).toBe(host.url);
    const params = oauth.validateAuthResponse(as, client, back, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, {
        ...insecure,
        additionalParameters: { resource: resource.href },
      }),
    );
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'read write' });
    const [header, payload] = tokens.access_token
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(payload).toMatchObject({ iss: host.url, aud: resource.href, sub: 'kim@example.com', scope: 'read write', client_id: client.client_id });
    expect(payload.exp - payload.iat).toBeLessThanOrEqual(3600);
    const jwks = (await (await fetch(as.jwks_uri!)).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);

    const mine = await oauth.protectedResourceRequest(tokens.access_token, 'GET', new URL(`${host.url}/api/v1/my_bookings`), undefined, undefined, insecure);
    expect(mine.status).toBe(200);
    expect(await mine.json()).toEqual({ count: 0, bookings: [] });

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    // The spent refresh token, presented again, revokes the whole family.
    const reuse = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure);
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' });
    const afterReuse = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure);
    expect(await afterReuse.json()).toMatchObject({ error: 'invalid_grant' });

    // A new sign-in; revoking its refresh token ends it.
    const second = await authorize(as, client, resource, 'kim@example.com');
    const t2 = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        oauth.validateAuthResponse(as, client, second.back, second.state),
        redirectUri,
        second.verifier,
        insecure,
      ),
    );
    const revoked = await oauth.revocationRequest(as, client, oauth.None(), t2.refresh_token!, insecure);
    await oauth.processRevocationResponse(revoked);
    const dead = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), t2.refresh_token!, insecure);
    expect(await dead.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await fetch(`${host.url}/revoke`, { method: 'POST', body: new URLSearchParams({ token: 'never-issued' }) })).status).toBe(200);
  });

  it('enforces scopes: a read-only token gets 403 insufficient_scope on a write', async () => {
    const { as, resource } = await discover();
    const client = await register(as);
    const { back, verifier, state } = await authorize(as, client, resource, 'reader@example.com', { scope: 'read' });
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), oauth.validateAuthResponse(as, client, back, state), redirectUri, verifier, insecure),
    );
    const res = await fetch(`${host.url}/api/v1/cancel_booking`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ manage_token: 'x'.repeat(43) }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="write"/);
    const mcp = await fetch(`${host.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'cancel_booking', arguments: { manage_token: 'x'.repeat(43) } } }),
    });
    expect(mcp.status).toBe(403);
    expect(mcp.headers.get('www-authenticate')).toMatch(/insufficient_scope/);
  });
});
