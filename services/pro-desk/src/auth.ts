import { proReader, type Pro } from '@frontdesk/db';
import { AuthChallengeError, bearerToken, lookUpCredential, type HostLimits } from '@frontdesk/http';
import type { Request } from 'express';
import type { AppContext } from './context';

const REALM = 'Bearer realm="pro-desk"';

/**
 * The pro whose key is in `Authorization: Bearer fdk_…`; 401 with a challenge otherwise. A
 * key this process checked before, unchanged since (ChangeFeed), costs no round trip and no
 * guess count: it cannot be a guess.
 */
export function proKeyAuth(ctx: Pick<AppContext, 'db' | 'changes'>, limits: HostLimits) {
  const pros = proReader(ctx.db, ctx.changes);
  return async (req: Request): Promise<Pro> => {
    const token = bearerToken(req);
    if (!token) {
      throw new AuthChallengeError('Missing API key: send the pro key as "Authorization: Bearer <key>".', REALM);
    }
    const wellFormed = token.startsWith('fdk_') && token.length <= 100;
    const known = wellFormed ? pros.knownKey(token) : undefined;
    if (known) return known;
    const pro = await lookUpCredential(limits, req, async () => (wellFormed ? pros.byKey(token) : undefined));
    if (!pro) {
      throw new AuthChallengeError(
        'That API key is not valid (wrong, or replaced by a newer key). Get the current key from the business owner.',
        `${REALM}, error="invalid_token"`,
      );
    }
    return pro;
  };
}
