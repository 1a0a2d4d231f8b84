import * as oauth from 'oauth4webapi';
import request from 'supertest';
import { SignJWT, importJWK, type JWK } from 'jose';
import { createLogger } from '@frontdesk/http';
import { createProDeskApp } from '@frontdesk/pro-desk';
import { bookReplicaApp, TEST_KEY_SEALER, TEST_OAUTH_CONFIG } from '@frontdesk/dev-env/both-hosts';
import { bookHostOnPort, registerClient, signInAndDecide, type BookHost } from '@frontdesk/dev-env/oauth';

// OAuth that cannot be spoofed or outlive revocation: every revocation reaches the access
// tokens of that sign-in on every replica at their next use.
let host: BookHost;
let replica: ReturnType<typeof request>;
let clientId: string;
const redirectUri = 'http://127.0.0.1:18099/cb';
const verifier = oauth.generateRandomCodeVerifier();
type Json = Record<string, any>;

beforeAll(async () => {
  host = await bookHostOnPort();
  // A second replica behind the same public URL, on the same database.
  replica = request(bookReplicaApp(host, { publicUrl: host.url }));
  clientId = (await register('Hardening')).client_id as string;
});
afterAll(() => host.close());

const register = (name: string, uris = [redirectUri]): Promise<Json> => registerClient(host, { client_name: name, redirect_uris: uris });
const authorizeUrl = async (over: Record<string, string> = {}) =>
  `${host.url}/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...over,
  }).toString()}`;
const form = (path: string, body: Record<string, string>) =>
  fetch(`${host.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) });
const token = async (body: Record<string, string>) => {
  const res = await form('/token', { client_id: clientId, ...body });
  return { status: res.status, body: (await res.json()) as Json };
};
const codeFor = async (email: string, over: Record<string, string> = {}) =>
  (await signInAndDecide(host, await authorizeUrl(over), email)).searchParams.get('code')!;
const redeem = (code: string, over: Record<string, string> = {}) =>
  token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, ...over });
async function signIn(email: string) {
  const { status, body } = await redeem(await codeFor(email));
  expect(status).toBe(200);
  return body as { access_token: string; refresh_token: string };
}
/** The status a bearer token gets from the first replica (over its port) and the second. */
async function onBothReplicas(accessToken: string) {
  const first = await fetch(`${host.url}/api/v1/my_bookings`, { headers: { authorization: `Bearer ${accessToken}` } });
  const second = await replica.get('/api/v1/my_bookings').set('Authorization', `Bearer ${accessToken}`);
  return [first.status, second.status];
}

describe('revocation reaches access tokens on every replica', () => {
  it('after /revoke of the refresh token', async () => {
    const t = await signIn('revoke-refresh@example.com');
    expect(await onBothReplicas(t.access_token)).toEqual([200, 200]);
    expect((await form('/revoke', { token: t.refresh_token })).status).toBe(200);
    expect(await onBothReplicas(t.access_token)).toEqual([401, 401]);
  });

  it('after /revoke of the access token itself, which also ends its refresh token', async () => {
    const t = await signIn('revoke-access@example.com');
    expect((await form('/revoke', { token: t.access_token })).status).toBe(200);
    expect(await onBothReplicas(t.access_token)).toEqual([401, 401]);
    expect((await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token })).body.error).toBe('invalid_grant');
  });

  it('after a refresh token is used twice: every access token of the sign-in stops', async () => {
    const t = await signIn('reuse@example.com');
    const next = await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(next.status).toBe(200);
    expect(await onBothReplicas(next.body.access_token as string)).toEqual([200, 200]);
    expect((await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token })).body.error).toBe('invalid_grant');
    expect(await onBothReplicas(t.access_token)).toEqual([401, 401]);
    expect(await onBothReplicas(next.body.access_token as string)).toEqual([401, 401]);
  });

  it('after a code is replayed', async () => {
    const code = await codeFor('replay@example.com');
    const first = await redeem(code);
    expect(await onBothReplicas(first.body.access_token as string)).toEqual([200, 200]);
    expect((await redeem(code)).body.error).toBe('invalid_grant');
    expect(await onBothReplicas(first.body.access_token as string)).toEqual([401, 401]);
  });
});

describe('the token endpoint and the challenge', () => {
  it('does not burn a code on a mismatched resource', async () => {
    const code = await codeFor('resource@example.com');
    const wrong = await redeem(code, { resource: 'https://elsewhere.example/mcp' });
    expect(wrong.body.error).toBe('invalid_target');
    expect((await redeem(code)).status).toBe(200);
  });

  it('puts the scope in the 401 challenge', async () => {
    const res = await fetch(`${host.url}/api/v1/my_bookings`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/resource_metadata="[^"]+", scope="read write"/);
  });

  it('refuses, with a 401, a token of ours without exp or with a malformed sub', async () => {
    await signIn('keys@example.com'); // makes sure the signing key exists
    const row = await host.t.db.selectFrom('oauth_signing_keys').selectAll().where('retired_at', 'is', null).executeTakeFirstOrThrow();
    const jwk = JSON.parse(TEST_KEY_SEALER.open(row.private_key_sealed!, row.kid).toString('utf8')) as JWK;
    const key = await importJWK(jwk, 'ES256');
    const forged = (claims: Json, exp: boolean) => {
      const jwt = new SignJWT({ scope: 'read', client_id: clientId, sid: 'some-sign-in', ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: row.kid, typ: 'at+jwt' })
        .setIssuer(host.url)
        .setAudience(host.url)
        .setIssuedAt();
      return (exp ? jwt.setExpirationTime('10m') : jwt).sign(key);
    };
    expect(await onBothReplicas(await forged({ sub: 'keys@example.com' }, false))).toEqual([401, 401]);
    expect(await onBothReplicas(await forged({ sub: 42 }, true))).toEqual([401, 401]);
    expect(await onBothReplicas(await forged({ sub: 'not an email' }, true))).toEqual([401, 401]);
    // The same forgery with every claim in order passes: the refusals above are for what they lack.
    expect(await onBothReplicas(await forged({ sub: 'keys@example.com' }, true))).toEqual([200, 200]);
  });
});

describe('loopback redirects (RFC 8252 §7.3)', () => {
  it('match on any port, and only on the port', async () => {
    const otherPort = 'http://127.0.0.1:40123/cb';
    const back = await signInAndDecide(host, await authorizeUrl({ redirect_uri: otherPort }), 'native@example.com');
    expect(`${back.origin}${back.pathname}`).toBe(otherPort);
    // The code is bound to the URI it was sent to.
    expect((await redeem(back.searchParams.get('code')!, { redirect_uri: otherPort })).status).toBe(200);
    for (const wrong of ['http://127.0.0.1:40123/other', 'http://10.0.0.1:18099/cb', 'https://127.0.0.1:18099/cb']) {
      const res = await fetch(await authorizeUrl({ redirect_uri: wrong }), { redirect: 'manual' });
      expect(res.status).toBe(400);
    }
  });
});

describe('consent that cannot be spoofed', () => {
  it("refuses a registration that takes or imitates the service's own client name", async () => {
    for (const name of ['Front Desk', 'front-desk', 'FrontDesk Official']) {
      const res = await register(name);
      expect(res.status).toBe(400);
      expect(res.error).toBe('invalid_client_metadata');
    }
  });

  it('refuses look-alikes of its name (Cyrillic, fullwidth, digits for letters, accents) and names with hidden characters', async () => {
    const lookalikes = [
      'Fr\u043ent Desk',
      '\uff26\uff52\uff4f\uff4e\uff54 \uff24\uff45\uff53\uff4b',
      'FR0NT DESK',
      'Fro\u0302nt De\u0300sk',
      'Fr\u03bfnt \u13a0esk',
    ];
    for (const name of lookalikes) {
      const res = await register(name);
      expect([name, res.status, res.error, res.error_description]).toEqual([
        name,
        400,
        'invalid_client_metadata',
        expect.stringMatching(/may not be or imitate "Front Desk"/),
      ]);
    }
    // A right-to-left override (shows "Front Desk"), a zero-width space, an isolate, a control character (BEL).
    for (const name of ['\u202eksed tnorF', 'Front\u200bDesk', 'Helper \u2066x\u2069', 'Help\u0007er']) {
      const res = await register(name);
      expect([JSON.stringify(name), res.status, res.error, res.error_description]).toEqual([
        JSON.stringify(name),
        400,
        'invalid_client_metadata',
        expect.stringMatching(/control or format characters/),
      ]);
    }
    // Names that only share letters with it are fine, in any script.
    for (const name of ['Desk Helper', 'Frontline Assistant', 'Помощник', '助手']) expect((await register(name)).status).toBe(201);
  });

  it('marks a registered client as unverified and names the host the code goes to; our own client is not marked', async () => {
    const claude = await register('Claude', ['https://attacker.example/cb']);
    const page = await fetch(await authorizeUrl({ client_id: claude.client_id as string, redirect_uri: 'https://attacker.example/cb' }));
    const html = await page.text();
    expect(html).toMatch(/<strong>Claude<\/strong> <span class="unverified">\(unverified application/);
    expect(html).toMatch(/the answer goes to <strong>attacker\.example<\/strong>/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const own = await fetch(await authorizeUrl({ client_id: 'front-desk', redirect_uri: 'http://127.0.0.1:9/callback' }));
    const ownHtml = await own.text();
    expect(ownHtml).toMatch(/<strong>Front Desk<\/strong> wants/);
    expect(ownHtml).not.toMatch(/class="unverified"/);
    expect(ownHtml).toMatch(/the answer goes to <strong>127\.0\.0\.1:9<\/strong>/);
  });
});

describe('an OAuth flow stays on the host it started on', () => {
  const proUrl = 'http://pro.test';
  /** The pro host on the same database: another issuer, with its own authorization server. */
  const proHost = () =>
    request(
      createProDeskApp({
        db: host.t.db,
        config: { publicUrl: proUrl, bookingUrl: host.url, ...TEST_OAUTH_CONFIG },
        logger: createLogger('pro', 'silent'),
        clock: () => new Date(),
      }).app,
    );

  it("refuses the book host's pending sign-in, code and refresh token at the pro host, which leaves them usable where they belong", async () => {
    const pro = proHost();
    const started = await (await fetch(await authorizeUrl())).text();
    const requestId = /name="request_id" value="([^"]+)"/.exec(started)![1]!;
    const email = `crosshost.${Date.now()}@example.com`;
    const finished = await pro.post('/authorize/email').set('Origin', proUrl).type('form').send({ request_id: requestId, email });
    expect(finished.status).toBe(400);
    expect(finished.text).toMatch(/This sign-in has expired/);
    expect(await host.t.db.selectFrom('outbox').select('id').where('to_address', '=', email).execute()).toEqual([]);

    const code = await codeFor(email);
    const body = { client_id: clientId, grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier };
    const elsewhere = await pro.post('/token').type('form').send(body);
    expect([elsewhere.status, elsewhere.body.error]).toEqual([400, 'invalid_grant']);
    const here = await redeem(code);
    expect(here.status).toBe(200);

    const refresh = { client_id: clientId, grant_type: 'refresh_token', refresh_token: here.body.refresh_token as string };
    const rotatedElsewhere = await pro.post('/token').type('form').send(refresh);
    expect([rotatedElsewhere.status, rotatedElsewhere.body.error]).toEqual([400, 'invalid_grant']);
    expect((await token(refresh)).status).toBe(200);
  });

  it("does not end the book host's sign-in when its refresh token is sent to the pro host's /revoke", async () => {
    const t = await signIn(`crossrevoke.${Date.now()}@example.com`);
    // RFC 7009: 200 for a token it does not know; another issuer's token is one.
    expect((await proHost().post('/revoke').type('form').send({ token: t.refresh_token })).status).toBe(200);
    expect(await onBothReplicas(t.access_token)).toEqual([200, 200]);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(refreshed.status).toBe(200);
    // Where it was issued, the same revocation ends it.
    expect((await form('/revoke', { token: refreshed.body.refresh_token as string })).status).toBe(200);
    expect(await onBothReplicas(refreshed.body.access_token as string)).toEqual([401, 401]);
  });
});
