import { RateLimitedError, allowFormTarget, clientIp, formField, formsFromThisSite, sendHtml, setErrorHeaders, takeSignInCode } from '@frontdesk/http';
import express, { Router, type Request, type Response } from 'express';
import { AppError, oauthWords } from '@frontdesk/domain';
import { findOAuthRequest, insertOAuthRequest, setOAuthRequestEmail, takeOAuthRequest } from '@frontdesk/db';
import { requestSignInCode, verifySignInCode } from '@frontdesk/use-cases';
import { AccessDeniedError, InvalidRequestError, InvalidScopeError, InvalidTargetError, UnsupportedResponseTypeError, type OAuthError } from '../errors';
import { REQUEST_MINUTES, SCOPES, findClient, issueCode, redirectUriMatches } from '../grants';
import { codePage, consentPage, emailPage, errorPage, type ShownClient } from '../pages';
import { resourcesOf, str, type OAuthServer } from '../shared';
import { ClientMetadataError } from '../client-metadata';

/**
 * The code flow with PKCE (S256 only) and RFC 8707 resources: GET /authorize checks the
 * request and asks for an email, then a code mailed to it, then consent, on server-rendered
 * pages; the answer goes back to the registered redirect URI with RFC 9207's iss.
 */
export function authorizeEndpoints(s: OAuthServer): Router {
  const router = Router();
  const issuer = s.issuer;
  const resources = resourcesOf(issuer);
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  /** How a page names the client: the pre-registered one is ours; any other is unverified. */
  const shownClient = (client: { id: string; name: string }, redirectUri: string): ShownClient => ({
    name: client.name,
    verified: client.id === s.publicClient.id,
    returnsTo: new URL(redirectUri).host,
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
  const page = sendHtml;

  router.get('/authorize', async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const clientId = str(q.client_id);
    let client;
    try {
      client = clientId ? await findClient(s.db, clientId, s.publicClient, s.clientDocuments) : undefined;
    } catch (err) {
      if (!(err instanceof ClientMetadataError)) throw err;
      return page(res, 400, errorPage('Unknown application', `The application's details at ${clientId} cannot be used: ${err.message}`));
    }
    // Until the client and its redirect URI are known, errors stay on this page.
    if (!client)
      return page(
        res,
        400,
        errorPage('Unknown application', clientId ? `No application is registered with the id ${clientId}.` : 'The request names no application (client_id).'),
      );
    const asked = str(q.redirect_uri);
    const redirectUri = asked ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
    if (!redirectUri || !redirectUriMatches(client.redirect_uris, redirectUri)) {
      return page(
        res,
        400,
        errorPage('Unknown return address', `${client.name} did not register ${asked ?? 'a single return address'}; nothing was sent to it.`),
      );
    }
    const state = str(q.state);
    const fail = (err: OAuthError) => redirectError(res, redirectUri, state, err);
    if (q.response_type !== 'code') return fail(new UnsupportedResponseTypeError(oauthWords.onlyResponseTypeCode()));
    const challenge = str(q.code_challenge);
    if (!challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) return fail(new InvalidRequestError(oauthWords.pkceRequired()));
    if (q.code_challenge_method !== 'S256') return fail(new InvalidRequestError(oauthWords.onlyS256()));
    const scope = str(q.scope) ?? 'read write';
    const scopes = scope.split(' ').filter(Boolean);
    if (scopes.length === 0 || scopes.some((s) => !(SCOPES as readonly string[]).includes(s))) return fail(new InvalidScopeError(oauthWords.scopesAre(SCOPES)));
    const resource = str(q.resource) ?? issuer;
    if (!resources.includes(resource)) return fail(new InvalidTargetError(oauthWords.resourcesAre(resources)));
    try {
      await s.limits.limiter.take('authorize', s.limits.limits.authorizePerIp, clientIp(req), { what: 'sign-ins started' });
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      setErrorHeaders(res, err);
      return page(res, 429, errorPage('Too many sign-ins', err.message));
    }
    // The id is the browser's capability to continue this authorization: 256 random bits.
    const id = await insertOAuthRequest(s.db, {
      client_id: client.id,
      redirect_uri: redirectUri,
      state: state ?? null,
      code_challenge: challenge,
      scope: [...new Set(scopes)].join(' '),
      resource,
      email: null,
      expires_at: new Date(s.clock().getTime() + REQUEST_MINUTES * 60_000),
    });
    page(res, 200, emailPage(id, shownClient(client, redirectUri), s.account));
  });

  /** The pending authorization a form continues, if it is still live. */
  const pending = async (req: Request) => {
    const id = str(formField(req.body, 'request_id'));
    const row = id ? await findOAuthRequest(s.db, id) : undefined;
    if (!row || row.expires_at.getTime() <= s.clock().getTime()) return null;
    const client = await findClient(s.db, row.client_id, s.publicClient, s.clientDocuments).catch((err: unknown) => {
      if (err instanceof ClientMetadataError) return undefined;
      throw err;
    });
    return client ? { row, client, shown: shownClient(client, row.redirect_uri) } : null;
  };
  const sameSite = formsFromThisSite(issuer);
  const expired = (res: Response) => page(res, 400, errorPage('This sign-in has expired', 'Go back to your assistant and connect again.'));

  router.post('/authorize/email', sameSite, form, async (req, res) => {
    const p = await pending(req);
    if (!p) return expired(res);
    const email = formField(req.body, 'email');
    try {
      await takeSignInCode(s.limits, req, email);
      const sent = await requestSignInCode(s.db, email, s.clock(), `let ${p.client.name} ${s.account.wants}`);
      page(res, 200, codePage(p.row.id, sent.email));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      setErrorHeaders(res, err);
      page(res, err.status, emailPage(p.row.id, p.shown, s.account, err.message));
    }
  });

  router.post('/authorize/code', sameSite, form, async (req, res) => {
    const p = await pending(req);
    if (!p) return expired(res);
    const email = formField(req.body, 'email');
    try {
      const verified = await verifySignInCode(s.db, email, formField(req.body, 'code'), s.clock());
      const refused = (await s.account.refuse?.(verified)) ?? null;
      if (refused) return page(res, 403, errorPage('No account here', refused));
      await setOAuthRequestEmail(s.db, p.row.id, verified);
      allowFormTarget(res, p.row.redirect_uri);
      page(res, 200, consentPage(p.row.id, p.shown, s.account, verified, p.row.scope.split(' ')));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      page(res, err.status, codePage(p.row.id, email, err.message));
    }
  });

  router.post('/authorize/consent', sameSite, form, async (req, res) => {
    const p = await pending(req);
    if (!p || !p.row.email) return expired(res);
    // One decision per request: the pending authorization is used up either way.
    if (!(await takeOAuthRequest(s.db, p.row.id))) return expired(res);
    const state = p.row.state ?? undefined;
    if (formField(req.body, 'decision') !== 'allow') return redirectError(res, p.row.redirect_uri, state, new AccessDeniedError(oauthWords.declined()));
    const code = await issueCode(
      s.db,
      {
        clientId: p.client.id,
        email: p.row.email,
        scope: p.row.scope,
        resource: p.row.resource,
        redirectUri: p.row.redirect_uri,
        codeChallenge: p.row.code_challenge,
      },
      s.clock(),
    );
    const url = new URL(p.row.redirect_uri);
    url.searchParams.set('code', code);
    if (state !== undefined) url.searchParams.set('state', state);
    url.searchParams.set('iss', issuer);
    res.redirect(303, url.toString());
  });

  return router;
}
