import { isSignInRevoked, proOwnedBy, proReader, type Pro } from '@frontdesk/db';
import { AuthChallengeError, InsufficientScopeError, bearerToken, lookUpCredential, type HostLimits, type Operation } from '@frontdesk/http';
import { resourceMetadataUrl, resourcesOf, type SigningKeys } from '@frontdesk/oauth';
import { ACCESS_TOKEN_NOT_VALID, BUSINESS_KEY_NOT_VALID, MISSING_BUSINESS_CREDENTIALS, lacksScopeMessage } from '@frontdesk/domain';
import type { Request } from 'express';
import type { AppContext } from './context';

type Scope = 'read' | 'write';

/** A business calling through an OAuth sign-in: the scopes it granted travel with it. A key has them all. */
export type ProCaller = Pro & { oauthScopes?: ReadonlySet<Scope>; resourceMetadata?: string };

/**
 * The business calling: its key (`Authorization: Bearer fdk_…`) or an access token its
 * owner granted an assistant on this host; 401 with an RFC 9728 challenge otherwise. A key
 * this process checked before, unchanged since (ChangeFeed), costs no round trip and no
 * guess count: it cannot be a guess. One whose pro changed since, but not its keys nor the
 * pro itself, costs a read of the pro and no guess count.
 */
export function proKeyAuth(ctx: Pick<AppContext, 'db' | 'changes' | 'config' | 'clock'>, limits: HostLimits, keys?: SigningKeys) {
  const pros = proReader(ctx.db, ctx.changes);
  return async (req: Request): Promise<ProCaller> => {
    const token = bearerToken(req);
    const wellFormed = token !== null && token.startsWith('fdk_') && token.length <= 100;
    const known = wellFormed ? pros.knownKey(token) : undefined;
    if (known) return known;
    // A key known here whose pro's data changed since (a booking into its feed) is no guess either:
    // only its pro is read again, shared by the calls that come meanwhile, with no guess check.
    if (wellFormed && pros.keyStillGood(token)) {
      const pro = await pros.byKey(token);
      if (pro) return pro;
    }
    // Words for a refusal, made only when one may be needed.
    const metadata = resourceMetadataUrl(ctx.config.publicUrl, req.path);
    const challenge = `Bearer realm="pro-desk", resource_metadata="${metadata}", scope="read write"`;
    if (!token) throw new AuthChallengeError(MISSING_BUSINESS_CREDENTIALS, challenge);
    if (keys && token.split('.').length === 3 && token.length <= 4096) {
      // An access token of this host's own authorization server: signature, issuer, this host as
      // audience, not expired, its sign-in not revoked, and its subject still owning a business.
      const found = await lookUpCredential(limits, req, async () => {
        const claims = await keys.verify(token, ctx.config.publicUrl, resourcesOf(ctx.config.publicUrl), ctx.clock()).catch(() => undefined);
        if (!claims || (await isSignInRevoked(ctx.db, claims.sid))) return undefined;
        const pro = await proOwnedBy(ctx.db, claims.sub);
        return pro && { pro, scopes: new Set(claims.scope.split(' ').filter((s): s is Scope => s === 'read' || s === 'write')) };
      });
      if (!found) throw new AuthChallengeError(ACCESS_TOKEN_NOT_VALID, `${challenge}, error="invalid_token"`);
      return { ...found.pro, oauthScopes: found.scopes, resourceMetadata: metadata };
    }
    const pro = await lookUpCredential(limits, req, async () => (wellFormed ? pros.byKey(token) : undefined));
    if (!pro) throw new AuthChallengeError(BUSINESS_KEY_NOT_VALID, `${challenge}, error="invalid_token"`);
    return pro;
  };
}

/** An access token without the operation's scope gets 403 (never 401: it did authenticate). */
export function proScopeGuard(publicUrl: string) {
  return (caller: ProCaller, op: Operation<Pro>): void => {
    if (op.scope && caller.oauthScopes && !caller.oauthScopes.has(op.scope)) {
      const metadata = caller.resourceMetadata ?? resourceMetadataUrl(publicUrl, '/mcp');
      throw new InsufficientScopeError(
        lacksScopeMessage(op.scope, op.name),
        `Bearer error="insufficient_scope", scope="${op.scope}", resource_metadata="${metadata}"`,
      );
    }
  };
}
