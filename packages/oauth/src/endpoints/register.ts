import { clientIp } from '@frontdesk/http';
import { oauthWords } from '@frontdesk/domain';
import express, { Router } from 'express';
import { InvalidClientMetadataError, InvalidRequestError, OAuthError } from '../errors';
import { checkRedirectUri, clientNameProblem, registerClient } from '../grants';
import { oauthJson, openCors, str, unstorableParameter, type OAuthServer } from '../shared';

/** RFC 7591 dynamic registration of public clients (no secrets, code flow only). */
export function registerEndpoint(s: OAuthServer): Router {
  const router = Router();
  router.all('/register', openCors, express.json({ limit: '16kb' }), async (req, res) => {
    try {
      if (req.method !== 'POST') throw new InvalidRequestError(oauthWords.registerNeedsPost());
      const body = (req.body ?? {}) as Record<string, unknown>;
      const unstorable = unstorableParameter(body);
      if (unstorable) throw new InvalidClientMetadataError(unstorable);
      if (!Array.isArray(body.redirect_uris) || body.redirect_uris.length === 0 || body.redirect_uris.length > 10) {
        throw new InvalidClientMetadataError(oauthWords.redirectUriCount());
      }
      const uris = body.redirect_uris.map(checkRedirectUri);
      const name = [...(str(body.client_name) ?? 'An assistant')].slice(0, 100).join('');
      const problem = clientNameProblem(name);
      if (problem) throw new InvalidClientMetadataError(problem);
      const grants = body.grant_types;
      if (Array.isArray(grants) && grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
        throw new InvalidClientMetadataError(oauthWords.onlyCodeAndRefreshGrants());
      }
      await s.limits.limiter.take('register', s.limits.limits.registerPerIp, clientIp(req), { what: 'client registrations' });
      const client = await registerClient(s.db, name, uris);
      res
        .status(201)
        .setHeader('Cache-Control', 'no-store')
        .json({
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
      throw err; // a 429 goes to the error handler: {error}, Retry-After and RateLimit fields
    }
  });

  return router;
}
