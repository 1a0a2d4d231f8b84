import { oauthWords } from '@frontdesk/domain';
import { withinRequest } from '@frontdesk/http';
import express, { Router, type Response } from 'express';
import { InvalidClientError, InvalidRequestError, OAuthError, UnsupportedGrantTypeError } from '../errors';
import { findClient, redeemCode, rotateRefresh, type IssuedGrant } from '../grants';
import { ClientMetadataError } from '../client-metadata';
import { ACCESS_TOKEN_SECONDS } from '../keys';
import { oauthJson, openCors, str, takeAuthorize, unstorableParameter, type OAuthServer } from '../shared';

/** The token endpoint: a code (with its PKCE verifier) or a refresh token for an access token. */
export function tokenEndpoint(s: OAuthServer): Router {
  const router = Router();
  const issuer = s.issuer;
  const form = express.urlencoded({ extended: false, limit: '16kb' });

  const tokenResponse = async (res: Response, grant: IssuedGrant, refreshToken: string) => {
    const accessToken = await s.keys.sign(
      { iss: issuer, aud: grant.resource, sub: grant.email, scope: grant.scope, client_id: grant.clientId, sid: grant.familyId },
      s.clock(),
    );
    res.setHeader('Cache-Control', 'no-store');
    res.json({ access_token: accessToken, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS, refresh_token: refreshToken, scope: grant.scope });
  };

  router.all('/token', openCors, form, async (req, res) => {
    try {
      if (req.method !== 'POST') throw new InvalidRequestError(oauthWords.tokenNeedsPost());
      const b = (req.body ?? {}) as Record<string, unknown>;
      const unstorable = unstorableParameter(b);
      if (unstorable) throw new InvalidRequestError(unstorable);
      const clientId = str(b.client_id);
      const client = clientId
        ? // A document fetched for a stranger costs a sign-in from their address's budget, before it is fetched.
          await findClient(s.db, clientId, s.publicClient, { ...s.clientDocuments, beforeFetch: () => takeAuthorize(s, req) }).catch((err: unknown) => {
            if (err instanceof ClientMetadataError) throw new InvalidClientError(err.message);
            throw err;
          })
        : undefined;
      if (!client) throw new InvalidClientError(oauthWords.unknownClient());
      const now = s.clock();
      if (b.grant_type === 'authorization_code') {
        const code = str(b.code);
        if (!code) throw new InvalidRequestError(oauthWords.codeRequired());
        // Within the request's deadline: a code spent after the client was told 503 could never be redeemed again.
        const { grant, refreshToken } = await withinRequest(req, () =>
          redeemCode(
            s.db,
            { code, clientId: client.id, redirectUri: str(b.redirect_uri), verifier: str(b.code_verifier), resource: str(b.resource), issuer },
            now,
          ),
        );
        return tokenResponse(res, grant, refreshToken);
      }
      if (b.grant_type === 'refresh_token') {
        const token = str(b.refresh_token);
        if (!token) throw new InvalidRequestError(oauthWords.refreshTokenRequired());
        // A rotation that committed after a 503 would make the client's retry look like a stolen token, and end its sign-in.
        const { grant, refreshToken } = await withinRequest(req, () => rotateRefresh(s.db, { token, clientId: client.id, scope: str(b.scope), issuer }, now));
        return tokenResponse(res, grant, refreshToken);
      }
      throw new UnsupportedGrantTypeError(oauthWords.unsupportedGrantType());
    } catch (err) {
      if (err instanceof OAuthError) return oauthJson(res, err);
      throw err;
    }
  });

  return router;
}
