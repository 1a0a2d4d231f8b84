import { Router, type NextFunction, type Request, type Response } from 'express';
import { OAuthError } from './errors';
import { authorizeEndpoints } from './endpoints/authorize';
import { metadataEndpoints } from './endpoints/metadata';
import { registerEndpoint } from './endpoints/register';
import { revokeEndpoint } from './endpoints/revoke';
import { tokenEndpoint } from './endpoints/token';
import { oauthJson, type OAuthServer, type SignInAccount } from './shared';
import { SigningKeys } from './keys';
import { DEFAULT_PUBLIC_CLIENT_REDIRECT_URIS } from './config';
import type { KeySealer } from './sealing';
import type { ClientMetadataFetchOptions } from './client-metadata';
import type { Db } from '@frontdesk/db';
import type { HostLimits } from '@frontdesk/http';

/**
 * An OAuth 2.0 authorization server for a host: RFC 8414 and RFC 9728 metadata, RFC 7591
 * registration of public clients, the code flow with PKCE and RFC 8707 resources, sign-in
 * by emailed code and consent on server-rendered pages, refresh-token rotation with reuse
 * detection, RFC 7009 revocation, and the JWKS. One file per endpoint under endpoints/.
 */
export function oauthRouter(s: OAuthServer): Router {
  const router = Router();
  router.use(metadataEndpoints(s), registerEndpoint(s), authorizeEndpoints(s), tokenEndpoint(s), revokeEndpoint(s));
  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (err instanceof OAuthError) return oauthJson(res, err);
    next(err);
  });
  return router;
}

/** What a host knows that its authorization server needs: its URL, its database, its sealing key, its client. */
export interface HostOAuthContext {
  db: Db;
  clock: () => Date;
  config: {
    publicUrl: string;
    keySealer: KeySealer;
    publicClientId?: string;
    publicClientRedirectUris?: string[];
    clientDocuments?: ClientMetadataFetchOptions;
  };
}

/**
 * A host's own authorization server and the signing keys its tokens are checked with:
 * both hosts build theirs here, differing only in what they call themselves and who may sign in.
 */
export function hostOAuth(ctx: HostOAuthContext, limits: HostLimits, who: { resourceName: string; account: SignInAccount }) {
  const keys = new SigningKeys(ctx.db, ctx.config.keySealer);
  const router = oauthRouter({
    db: ctx.db,
    issuer: ctx.config.publicUrl,
    keys,
    clock: ctx.clock,
    publicClient: { id: ctx.config.publicClientId ?? 'front-desk', redirectUris: ctx.config.publicClientRedirectUris ?? DEFAULT_PUBLIC_CLIENT_REDIRECT_URIS },
    limits,
    clientDocuments: ctx.config.clientDocuments,
    sealer: ctx.config.keySealer,
    hashKeys: ctx.config.keySealer.hashKeys,
    ...who,
  });
  return { keys, router };
}
