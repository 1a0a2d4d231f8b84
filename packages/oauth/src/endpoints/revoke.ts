import { formField } from '@frontdesk/http';
import express, { Router } from 'express';
import { revokeRefresh } from '../grants';
import { openCors, str, type OAuthServer } from '../shared';

/** RFC 7009 revocation of a refresh token (and with it, its whole sign-in). */
export function revokeEndpoint(s: OAuthServer): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  router.all('/revoke', openCors, form, async (req, res) => {
    // RFC 7009 §2.2: answer 200 whether or not the token was known.
    const token = str(formField(req.body, 'token'));
    if (req.method === 'POST' && token) await revokeRefresh(s.db, token, s.clock());
    res.status(200).setHeader('Cache-Control', 'no-store').end();
  });

  return router;
}
