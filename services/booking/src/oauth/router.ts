import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { newToken } from '@frontdesk/db';
import { requestSignInCode, verifySignInCode } from '@frontdesk/use-cases';
import { AppError } from '@frontdesk/domain';
import type { AppContext } from '../context';
import {
  AccessDeniedError,
  InvalidClientError,
  InvalidClientMetadataError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  OAuthError,
  UnsupportedGrantTypeError,
  UnsupportedResponseTypeError,
} from './errors';
import { ACCESS_TOKEN_SECONDS, type SigningKeys } from './keys';
import { consentPage, codePage, emailPage, errorPage } from './pages';
import { REQUEST_MINUTES, SCOPES, checkRedirectUri, findClient, issueCode, redeemCode, registerClient, revokeRefresh, rotateRefresh, type Grant } from './store';

export interface OAuthConfig {
  publicClientId: string;
  publicClientRedirectUris: string[];
}

/** The resources tokens may be issued for: the booking API and its MCP endpoint. */
export const resourcesOf = (publicUrl: string) => [publicUrl, `${publicUrl}/mcp`];

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** CORS for endpoints browser-based clients call directly (no cookies are involved). */
export const openCors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, MCP-Protocol-Version');
  res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  if (req.method === 'OPTIONS') {
    res.status(204).end();
    return;
  }
  next();
};

/**
 * The book host's OAuth 2.0 authorization server: RFC 8414 and RFC 9728 metadata, RFC 7591
 * registration of public clients, the code flow with PKCE (S256 only) and RFC 8707
 * resources, sign-in by emailed code and consent on server-rendered pages, refresh-token
 * rotation with reuse detection, RFC 7009 revocation, and the JWKS.
 */
export function oauthRouter(ctx: AppContext, keys: SigningKeys, config: OAuthConfig): Router {
  const router = Router();
  const issuer = ctx.config.publicUrl;
  const resources = resourcesOf(issuer);
  const pub = { id: config.publicClientId, redirectUris: config.publicClientRedirectUris };
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const ownOrigin = new URL(issuer).origin;

  const protectedResource = (resource: string) => ({
    resource,
    authorization_servers: [issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Front Desk booking',
  });
  for (const [path, resource] of [
    ['/.well-known/oauth-protected-resource', issuer],
    ['/.well-known/oauth-protected-resource/mcp', `${issuer}/mcp`],
  ] as const) {
    router.all(path, openCors, (_req, res) => {
      res.json(protectedResource(resource));
    });
  }
  router.all('/.well-known/oauth-authorization-server', openCors, (_req, res) => {
    res.json({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      registration_endpoint: `${issuer}/register`,
      revocation_endpoint: `${issuer}/revoke`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      scopes_supported: [...SCOPES],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      authorization_response_iss_parameter_supported: true,
    });
  });
  router.all('/.well-known/jwks.json', openCors, async (_req, res) => {
    res.json(await keys.jwks());
  });

  const oauthJson = (res: Response, err: OAuthError) => {
    res.status(err.status).setHeader('Cache-Control', 'no-store').json(err.toJSON());
  };

  router.all('/register', openCors, express.json({ limit: '16kb' }), async (req, res) => {
    try {
      if (req.method !== 'POST') throw new InvalidRequestError('Register with a POST of the client metadata as JSON.');
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (!Array.isArray(body.redirect_uris) || body.redirect_uris.length === 0 || body.redirect_uris.length > 10) {
        throw new InvalidClientMetadataError('redirect_uris must list 1 to 10 redirect URIs.');
      }
      const uris = body.redirect_uris.map(checkRedirectUri);
      const name = (str(body.client_name) ?? 'An assistant').slice(0, 100);
      const grants = body.grant_types;
      if (Array.isArray(grants) && grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
        throw new InvalidClientMetadataError('Only the authorization_code and refresh_token grants are supported.');
      }
      const client = await registerClient(ctx.db, name, uris);
      res.status(201).setHeader('Cache-Control', 'no-store').json({
        client_id: client.id,
        client_id_issued_at: Math.floor(client.created_at.getTime() / 1000),
        client_name: client.name,
        redirect_uris: client.redirect_uris,
        // Public clients only: whatever secret method was asked for, there is no secret.
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      });
    } catch (err) {
      if (err instanceof OAuthError) return oauthJson(res, err);
      throw err;
    }
  });

  /** Sends an error back to a redirect URI that is already trusted (RFC 6749 §4.1.2.1, RFC 9207 iss). */
  const redirectError = (res: Response, redirectUri: string, state: string | undefined, err: OAuthError) => {
    const url = new URL(redirectUri);
    url.searchParams.set('error', err.error);
    url.searchParams.set('error_description', err.description);
    if (state !== undefined) url.searchParams.set('state', state);
    url.searchParams.set('iss', issuer);
    res.redirect(303, url.toString());
  };
  const page = (res: Response, status: number, html: string) => {
    res.status(status).type('html').setHeader('Cache-Control', 'no-store').send(html);
  };

  router.get('/authorize', async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const clientId = str(q.client_id);
    const client = clientId ? await findClient(ctx.db, clientId, pub) : undefined;
    // Until the client and its redirect URI are known, errors stay on this page.
    if (!client) return page(res, 400, errorPage('Unknown application', clientId ? `No application is registered with the id ${clientId}.` : 'The request names no application (client_id).'));
    const asked = str(q.redirect_uri);
    const redirectUri = asked ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
    if (!redirectUri || !client.redirect_uris.includes(redirectUri)) {
      return page(res, 400, errorPage('Unknown return address', `${client.name} did not register ${asked ?? 'a single return address'}; nothing was sent to it.`));
    }
    const state = str(q.state);
    const fail = (err: OAuthError) => redirectError(res, redirectUri, state, err);
    if (q.response_type !== 'code') return fail(new UnsupportedResponseTypeError('Only response_type=code is supported.'));
    const challenge = str(q.code_challenge);
    if (!challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) return fail(new InvalidRequestError('PKCE is required: send code_challenge (S256).'));
    if (q.code_challenge_method !== 'S256') return fail(new InvalidRequestError('code_challenge_method must be S256.'));
    const scope = str(q.scope) ?? 'read write';
    const scopes = scope.split(' ').filter(Boolean);
    if (scopes.length === 0 || scopes.some((s) => !(SCOPES as readonly string[]).includes(s))) return fail(new InvalidScopeError(`Scopes are ${SCOPES.join(' and ')}.`));
    const resource = str(q.resource) ?? issuer;
    if (!resources.includes(resource)) return fail(new InvalidTargetError(`Tokens are issued only for ${resources.join(' or ')}.`));
    // The id is the browser's capability to continue this authorization: 256 random bits.
    const id = `azr_${newToken()}`;
    await ctx.db
      .insertInto('oauth_requests')
      .values({
        id,
        client_id: client.id,
        redirect_uri: redirectUri,
        state: state ?? null,
        code_challenge: challenge,
        scope: [...new Set(scopes)].join(' '),
        resource,
        email: null,
        expires_at: new Date(ctx.clock().getTime() + REQUEST_MINUTES * 60_000),
      })
      .execute();
    page(res, 200, emailPage(id, client.name));
  });

  /** The pending authorization a form continues, if it is still live. */
  const pending = async (req: Request) => {
    const id = str(req.body?.request_id);
    const row = id ? await ctx.db.selectFrom('oauth_requests').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
    if (!row || row.expires_at.getTime() <= ctx.clock().getTime()) return null;
    const client = await findClient(ctx.db, row.client_id, pub);
    return client ? { row, client } : null;
  };
  const sameSite: RequestHandler = (req, res, next) => {
    const origin = req.get('origin');
    if (origin && origin !== ownOrigin) return page(res, 403, errorPage('Not allowed', 'This form can only be sent from this site.'));
    next();
  };
  const expired = (res: Response) => page(res, 400, errorPage('This sign-in has expired', 'Go back to your assistant and connect again.'));

  router.post('/authorize/email', sameSite, form, async (req, res) => {
    const p = await pending(req);
    if (!p) return expired(res);
    const email = String(req.body?.email ?? '');
    try {
      const sent = await requestSignInCode(ctx.db, email, ctx.clock(), `let ${p.client.name} use your Front Desk bookings`);
      page(res, 200, codePage(p.row.id, sent.email));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      page(res, err.status, emailPage(p.row.id, p.client.name, err.message));
    }
  });

  router.post('/authorize/code', sameSite, form, async (req, res) => {
    const p = await pending(req);
    if (!p) return expired(res);
    const email = String(req.body?.email ?? '');
    try {
      const verified = await verifySignInCode(ctx.db, email, String(req.body?.code ?? ''), ctx.clock());
      await ctx.db.updateTable('oauth_requests').set({ email: verified }).where('id', '=', p.row.id).execute();
      page(res, 200, consentPage(p.row.id, p.client.name, verified, p.row.scope.split(' ')));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      page(res, err.status, codePage(p.row.id, email, err.message));
    }
  });

  router.post('/authorize/consent', sameSite, form, async (req, res) => {
    const p = await pending(req);
    if (!p || !p.row.email) return expired(res);
    // One decision per request: the pending authorization is used up either way.
    const deleted = await ctx.db.deleteFrom('oauth_requests').where('id', '=', p.row.id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return expired(res);
    const state = p.row.state ?? undefined;
    if (req.body?.decision !== 'allow') return redirectError(res, p.row.redirect_uri, state, new AccessDeniedError('The person declined.'));
    const code = await issueCode(
      ctx.db,
      { clientId: p.client.id, email: p.row.email, scope: p.row.scope, resource: p.row.resource, redirectUri: p.row.redirect_uri, codeChallenge: p.row.code_challenge },
      ctx.clock(),
    );
    const url = new URL(p.row.redirect_uri);
    url.searchParams.set('code', code);
    if (state !== undefined) url.searchParams.set('state', state);
    url.searchParams.set('iss', issuer);
    res.redirect(303, url.toString());
  });

  const tokenResponse = async (res: Response, grant: Grant, refreshToken: string) => {
    const accessToken = await keys.sign({ iss: issuer, aud: grant.resource, sub: grant.email, scope: grant.scope, client_id: grant.clientId }, ctx.clock());
    res.setHeader('Cache-Control', 'no-store');
    res.json({ access_token: accessToken, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS, refresh_token: refreshToken, scope: grant.scope });
  };

  router.all('/token', openCors, form, async (req, res) => {
    try {
      if (req.method !== 'POST') throw new InvalidRequestError('Send a POST with a form-encoded body.');
      const b = (req.body ?? {}) as Record<string, unknown>;
      const clientId = str(b.client_id);
      if (!clientId || !(await findClient(ctx.db, clientId, pub))) throw new InvalidClientError('Unknown client_id.');
      const now = ctx.clock();
      if (b.grant_type === 'authorization_code') {
        const code = str(b.code);
        if (!code) throw new InvalidRequestError('code is required.');
        const resource = str(b.resource);
        const { grant, refreshToken } = await redeemCode(ctx.db, { code, clientId, redirectUri: str(b.redirect_uri), verifier: str(b.code_verifier) }, now);
        if (resource !== undefined && resource !== grant.resource) throw new InvalidTargetError('resource differs from the one authorized.');
        return tokenResponse(res, grant, refreshToken);
      }
      if (b.grant_type === 'refresh_token') {
        const token = str(b.refresh_token);
        if (!token) throw new InvalidRequestError('refresh_token is required.');
        const { grant, refreshToken } = await rotateRefresh(ctx.db, { token, clientId, scope: str(b.scope) }, now);
        return tokenResponse(res, grant, refreshToken);
      }
      throw new UnsupportedGrantTypeError('grant_type must be authorization_code or refresh_token.');
    } catch (err) {
      if (err instanceof OAuthError) return oauthJson(res, err);
      throw err;
    }
  });

  router.all('/revoke', openCors, form, async (req, res) => {
    // RFC 7009 §2.2: answer 200 whether or not the token was known.
    const token = str(req.body?.token);
    if (req.method === 'POST' && token) await revokeRefresh(ctx.db, token, ctx.clock());
    res.status(200).setHeader('Cache-Control', 'no-store').end();
  });

  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (err instanceof OAuthError) return oauthJson(res, err);
    next(err);
  });
  return router;
}
