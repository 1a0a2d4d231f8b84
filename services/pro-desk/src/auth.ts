import { findProByKey, type Pro } from '@frontdesk/db';
import { AuthChallengeError, bearerToken, lookUpCredential, type HostLimits } from '@frontdesk/http';
import type { Request } from 'express';
import type { AppContext } from './context';

const REALM = 'Bearer realm="pro-desk"';

/** The pro whose key is in `Authorization: Bearer fdk_…`; 401 with a challenge otherwise. */
export function proKeyAuth(ctx: Pick<AppContext, 'db'>, limits: HostLimits) {
  return async (req: Request): Promise<Pro> => {
    const token = bearerToken(req);
    if (!token) {
      throw new AuthChallengeError('Missing API key: send the pro key as "Authorization: Bearer <key>".', REALM);
    }
    const pro = await lookUpCredential(limits, req, async () => (token.startsWith('fdk_') && token.length <= 100 ? findProByKey(ctx.db, token) : undefined));
    if (!pro) {
      throw new AuthChallengeError(
        'That API key is not valid (wrong, or replaced by a newer key). Get the current key from the business owner.',
        `${REALM}, error="invalid_token"`,
      );
    }
    return pro;
  };
}
