import { formField, withinRequest } from '@frontdesk/http';
import express, { Router } from 'express';
import { revokeSignIn } from '../grants';
import { openCors, resourcesOf, str, type OAuthServer } from '../shared';

/** RFC 7009 revocation of a refresh or access token, and with it the whole sign-in. */
export function revokeEndpoint(s: OAuthServer): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  router.all('/revoke', openCors, form, async (req, res) => {
    // RFC 7009 §2.2: answer 200 whether or not the token was known.
    const token = str(formField(req.body, 'token'));
    if (req.method === 'POST' && token) {
      // An access token is ours if it verifies (expired ones too: its sign-in may still be live).
      const sidOf = async (t: string) => {
        if (t.split('.').length !== 3) return null;
        const claims = await s.keys.verify(t, s.issuer, resourcesOf(s.issuer), new Date(0)).catch(() => null);
        return claims?.sid ?? null;
      };
      await withinRequest(req, () => revokeSignIn(s.db, { token, issuer: s.issuer, accessTokenSid: sidOf }, s.clock()));
    }
    res.status(200).setHeader('Cache-Control', 'no-store').end();
  });

  return router;
}
