import { Router, type NextFunction, type Request, type Response } from 'express';
import { OAuthError } from './errors';
import { authorizeEndpoints } from './endpoints/authorize';
import { metadataEndpoints } from './endpoints/metadata';
import { registerEndpoint } from './endpoints/register';
import { revokeEndpoint } from './endpoints/revoke';
import { tokenEndpoint } from './endpoints/token';
import { oauthJson, type OAuthServer } from './shared';

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
