import {
  RateLimitedError,
  ShownOnce,
  allowFormTarget,
  formField,
  formsFromThisSite,
  sendHtml as page,
  setErrorHeaders,
  takeSignInCode,
  visitIn,
  visitOf,
  withinRequest,
} from '@frontdesk/http';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { AppError, oauthWords } from '@frontdesk/domain';
import { findOAuthRequest, insertOAuthRequest, setOAuthRequestEmail, takeOAuthRequest, type OAuthClient } from '@frontdesk/db';
import { requestSignInCode, verifySignInCode } from '@frontdesk/use-cases';
import { AccessDeniedError, InvalidRequestError, InvalidScopeError, InvalidTargetError, UnsupportedResponseTypeError, type OAuthError } from '../errors';
import { REQUEST_MINUTES, SCOPES, findClient, issueCode, redirectUriMatches } from '../grants';
import { codePage, consentPage, emailPage, errorPage, type ShownClient } from '../pages';
import { resourcesOf, str, takeAuthorize, unstorableParameter, type OAuthServer } from '../shared';
import { ClientMetadataError } from '../client-metadata';

/**
 * The code flow with PKCE (S256 only) and RFC 8707 resources: GET /authorize checks the
 * request and asks for an email, then a code mailed to it, then consent, on server-rendered
 * pages; the answer goes back to the registered redirect URI with RFC 9207's iss.
 */

/** How a page names the client: the pre-registered one is ours; any other is unverified. */
const shownClient = (s: OAuthServer, client: { id: string; name: string }, redirectUri: string): ShownClient => ({
  name: client.name,
  verified: client.id === s.publicClient.id,
  returnsTo: new URL(redirectUri).host,
});

/** Where an answer goes back to: a redirect URI already trusted, with the client's state. */
interface ReturnTo {
  redirectUri: string;
  state: string | undefined;
}

/** Sends an answer back to a trusted redirect URI with RFC 9207's iss: an error (RFC 6749 §4.1.2.1) or a code. */
function sendBack(s: OAuthServer, res: Response, to: ReturnTo, params: Record<string, string>): void {
  const url = new URL(to.redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (to.state !== undefined) url.searchParams.set('state', to.state);
  url.searchParams.set('iss', s.issuer);
  res.redirect(303, url.toString());
}
const redirectError = (s: OAuthServer, res: Response, to: ReturnTo, err: OAuthError) =>
  sendBack(s, res, to, { error: err.error, error_description: err.description });

/** The client and the redirect URI a request names; until both are known, errors stay on this page (then undefined). */
async function trustedClient(s: OAuthServer, q: Record<string, unknown>, res: Response): Promise<{ client: OAuthClient; redirectUri: string } | undefined> {
  const clientId = str(q.client_id);
  let client;
  try {
    client = clientId ? await findClient(s.db, clientId, s.publicClient, s.clientDocuments) : undefined;
  } catch (err) {
    if (!(err instanceof ClientMetadataError)) throw err;
    page(res, 400, errorPage('Unknown application', `The application's details at ${clientId} cannot be used: ${err.message}`));
    return undefined;
  }
  if (!client) {
    page(
      res,
      400,
      errorPage('Unknown application', clientId ? `No application is registered with the id ${clientId}.` : 'The request names no application (client_id).'),
    );
    return undefined;
  }
  const asked = str(q.redirect_uri);
  const redirectUri = asked ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
  if (!redirectUri || !redirectUriMatches(client.redirect_uris, redirectUri)) {
    page(res, 400, errorPage('Unknown return address', `${client.name} did not register ${asked ?? 'a single return address'}; nothing was sent to it.`));
    return undefined;
  }
  return { client, redirectUri };
}

/** What the request asks for, or the protocol error to send back. */
function askedFor(s: OAuthServer, q: Record<string, unknown>): { challenge: string; scopes: string[]; resource: string } | OAuthError {
  if (q.response_type !== 'code') return new UnsupportedResponseTypeError(oauthWords.onlyResponseTypeCode());
  const challenge = str(q.code_challenge);
  if (!challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) return new InvalidRequestError(oauthWords.pkceRequired());
  if (q.code_challenge_method !== 'S256') return new InvalidRequestError(oauthWords.onlyS256());
  const scopes = (str(q.scope) ?? 'read write').split(' ').filter(Boolean);
  if (scopes.length === 0 || scopes.some((x) => !(SCOPES as readonly string[]).includes(x))) return new InvalidScopeError(oauthWords.scopesAre(SCOPES));
  const resources = resourcesOf(s.issuer);
  const resource = str(q.resource) ?? s.issuer;
  if (!resources.includes(resource)) return new InvalidTargetError(oauthWords.resourcesAre(resources));
  return { challenge, scopes: [...new Set(scopes)], resource };
}

/** GET /authorize: the request checked and kept under an unguessable id, then the page asking for an email. */
const startAuthorization =
  (s: OAuthServer): RequestHandler =>
  async (req, res) => {
    const q = req.query as Record<string, unknown>;
    // Counted first: a client's metadata document is fetched on this request's behalf.
    try {
      await takeAuthorize(s, req);
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      setErrorHeaders(res, err);
      return page(res, 429, errorPage('Too many sign-ins', err.message));
    }
    const unstorable = unstorableParameter(q);
    if (unstorable) return page(res, 400, errorPage('This request cannot be used', unstorable));
    const trusted = await trustedClient(s, q, res);
    if (!trusted) return;
    const to = { redirectUri: trusted.redirectUri, state: str(q.state) };
    const asked = askedFor(s, q);
    if (!('challenge' in asked)) return redirectError(s, res, to, asked);
    // The id is the browser's capability to continue this authorization: 256 random bits.
    const id = await insertOAuthRequest(
      s.db,
      {
        client_id: trusted.client.id,
        redirect_uri: to.redirectUri,
        state: to.state ?? null,
        code_challenge: asked.challenge,
        scope: asked.scopes.join(' '),
        resource: asked.resource,
        issuer: s.issuer,
        email: null,
        expires_at: new Date(s.clock().getTime() + REQUEST_MINUTES * 60_000),
      },
      s.hashKeys,
    );
    page(res, 200, emailPage(id, shownClient(s, trusted.client, to.redirectUri), s.account));
  };

/** The pending authorization a form (or a step's page) continues, if it is still live. */
async function pending(s: OAuthServer, req: Request) {
  return pendingById(s, str(formField(req.body, 'request_id')));
}

async function pendingById(s: OAuthServer, id: string | undefined) {
  const row = id ? await findOAuthRequest(s.db, id, s.hashKeys) : undefined;
  // A sign-in started on another host is not finished here (its account rules are that host's).
  if (!row || row.issuer !== s.issuer || row.expires_at.getTime() <= s.clock().getTime()) return null;
  const client = await findClient(s.db, row.client_id, s.publicClient, s.clientDocuments).catch((err: unknown) => {
    if (err instanceof ClientMetadataError) return undefined;
    throw err;
  });
  // `id` is what the browser holds; the row's own id is its keyed hash.
  return client && id ? { id, row, client, shown: shownClient(s, client, row.redirect_uri) } : null;
}

/**
 * What a step hands to the next step's page: the request and the address, sealed in a cookie
 * under /authorize for this browser's visit (no one is signed in here: a browser closed since,
 * or signed out of a page of this host, no longer continues it). The POST answers 303 to the
 * page, so a reload shows it again and never mails another code or spends the code twice; the
 * request id stays out of addresses (and logs).
 */
interface Handed {
  request: string;
  email: string;
}
const handOver = (s: OAuthServer) =>
  new ShownOnce(s.sealer, { name: 'fd_authorize', path: '/authorize', secure: s.issuer.startsWith('https://'), minutes: REQUEST_MINUTES });
/** Hands `handed` over to the page at `at` (a step's address), for this browser's visit. */
const handTo = (s: OAuthServer, req: Request, res: Response, { at, handed }: { at: string; handed: Handed }) =>
  res.redirect(303, `${at}?step=${handOver(s).keep(res, visitOf(req, res, s.issuer.startsWith('https://')), handed, s.clock())}`);

/** The page a step's POST redirected to, for the request and address it handed over; null when that is gone. */
async function handedOver(s: OAuthServer, req: Request): Promise<{ p: Pending; email: string } | null> {
  const ref = typeof req.query.step === 'string' ? req.query.step : '';
  const handed = ref ? handOver(s).value<Handed>(req, visitIn(req), ref, s.clock()) : null;
  const p = handed ? await pendingById(s, handed.request) : null;
  return p && handed ? { p, email: handed.email } : null;
}

const expired = (res: Response) => page(res, 400, errorPage('This sign-in has expired', 'Go back to your assistant and connect again.'));

type Pending = NonNullable<Awaited<ReturnType<typeof pending>>>;

/** A step of a pending authorization: the request still live, the address typed, a refusal shown on the step's own page. */
function pendingStep(
  s: OAuthServer,
  step: { act(req: Request, res: Response, o: { p: Pending; email: string }): Promise<void>; again(p: Pending, email: string, error: string): string },
): RequestHandler {
  return async (req, res) => {
    const p = await pending(s, req);
    if (!p) return expired(res);
    let email = '';
    try {
      email = formField(req.body, 'email');
      await step.act(req, res, { p, email });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      setErrorHeaders(res, err);
      page(res, err.status, step.again(p, email, err.message));
    }
  };
}

/** The address to sign in with: a code is mailed to it, within the shared limits. */
const emailStep = (s: OAuthServer) =>
  pendingStep(s, {
    async act(req, res, { p, email }) {
      await takeSignInCode(s.limits, req, email);
      const sent = await withinRequest(req, () =>
        requestSignInCode(s.db, email, s.clock(), { purpose: `let ${p.client.name} ${s.account.wants}`, keys: s.hashKeys }),
      );
      handTo(s, req, res, { at: '/authorize/code', handed: { request: p.id, email: sent.email } });
    },
    again: (p, _email, error) => emailPage(p.id, p.shown, s.account, error),
  });

/** The code from the mail: the address is verified, then the page asking to allow the client. */
const codeStep = (s: OAuthServer) =>
  pendingStep(s, {
    async act(req, res, { p, email }) {
      const { verified, refused } = await withinRequest(req, async () => {
        const verified = await verifySignInCode(s.db, email, formField(req.body, 'code'), { now: s.clock(), keys: s.hashKeys });
        const refused = (await s.account.refuse?.(verified)) ?? null;
        if (!refused) await setOAuthRequestEmail(s.db, p.row.id, verified);
        return { verified, refused };
      });
      if (refused) return page(res, 403, errorPage('No account here', refused));
      handTo(s, req, res, { at: '/authorize/consent', handed: { request: p.id, email: verified } });
    },
    again: (p, email, error) => codePage(p.id, email, error),
  });

/** Allow or deny: one decision per request, and the pending authorization is used up either way. */
const consentStep =
  (s: OAuthServer): RequestHandler =>
  async (req, res) => {
    const p = await pending(s, req);
    if (!p || !p.row.email) return expired(res);
    if (!(await withinRequest(req, () => takeOAuthRequest(s.db, p.row.id)))) return expired(res);
    const to = { redirectUri: p.row.redirect_uri, state: p.row.state ?? undefined };
    if (formField(req.body, 'decision') !== 'allow') return redirectError(s, res, to, new AccessDeniedError(oauthWords.declined()));
    const { row } = p;
    const grant = {
      clientId: p.client.id,
      email: p.row.email,
      scope: row.scope,
      resource: row.resource,
      issuer: row.issuer,
      redirectUri: row.redirect_uri,
      codeChallenge: row.code_challenge,
    };
    sendBack(s, res, to, { code: await withinRequest(req, () => issueCode(s.db, grant, s.clock())) });
  };

/** GET /authorize/code: the code form for the address just mailed; a reload shows it again. */
const codeForm =
  (s: OAuthServer): RequestHandler =>
  async (req, res) => {
    const at = await handedOver(s, req);
    if (!at) return expired(res);
    page(res, 200, codePage(at.p.id, at.email));
  };

/** GET /authorize/consent: the question to allow the client, once the address is verified for this request. */
const consentForm =
  (s: OAuthServer): RequestHandler =>
  async (req, res) => {
    const at = await handedOver(s, req);
    if (!at || at.p.row.email !== at.email) return expired(res);
    allowFormTarget(res, at.p.row.redirect_uri);
    page(res, 200, consentPage(at.p.id, at.p.shown, { account: s.account, email: at.email, scopes: at.p.row.scope.split(' ') }));
  };

export function authorizeEndpoints(s: OAuthServer): Router {
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const sameSite = formsFromThisSite(s.issuer);
  const router = Router();
  router.get('/authorize', startAuthorization(s));
  router.post('/authorize/email', sameSite, form, emailStep(s));
  router.post('/authorize/code', sameSite, form, codeStep(s));
  router.post('/authorize/consent', sameSite, form, consentStep(s));
  router.get('/authorize/code', codeForm(s));
  router.get('/authorize/consent', consentForm(s));
  // The email step's address opened as a page (a bookmark): the sign-in it belonged to is gone; say so as a page.
  router.get('/authorize/email', (_req, res) => expired(res));
  return router;
}
