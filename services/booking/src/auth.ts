import { createHash, timingSafeEqual } from 'node:crypto';
import { findPersonalKey, isSignInRevoked } from '@frontdesk/db';
import {
  ACCESS_TOKEN_NOT_VALID,
  CUSTOMER_KEY_NOT_VALID,
  MISSING_CUSTOMER_CREDENTIALS,
  headerBlank,
  headerNotOneLine,
  headerNotAPhone,
  headerNotAnEmail,
  headerTooLong,
  isEmail,
  isPhone,
  isSingleLine,
  lacksScopeMessage,
} from '@frontdesk/domain';
import {
  AuthChallengeError,
  InsufficientScopeError,
  bearerToken,
  clientIp,
  headerText,
  lookUpCredential,
  type HostLimits,
  type Operation,
} from '@frontdesk/http';
import { resourceMetadataUrl, resourcesOf, type SigningKeys } from '@frontdesk/oauth';
import type { Request } from 'express';
import type { AppContext } from './context';

export type Scope = 'read' | 'write';

/**
 * Who is calling the book host. `user` holds the X-User-* details an assistant sends;
 * `email` is a verified account email (personal key, later OAuth), never a header's.
 */
export interface Customer {
  credential: 'public' | 'personal' | 'oauth';
  email: string | null;
  scopes: ReadonlySet<Scope>;
  user: { name: string | null; email: string | null; phone: string | null };
  /** A booking page's visitor (a digest of the browser's visit): set by the pages only, never from a request's headers. */
  visit?: string;
  /** The protected-resource metadata of what was called (/mcp's or the API's): where a scope challenge points. */
  resourceMetadata?: string;
}

const ALL_SCOPES: ReadonlySet<Scope> = new Set(['read', 'write']);
const digest = (s: string) => createHash('sha256').update(s).digest();

function header(req: Request, name: string, max: number): string | null {
  const raw = headerText(req, name);
  if (raw === undefined) return null;
  const value = raw.trim();
  if (!value) throw headerBlank(name);
  if (!isSingleLine(value)) throw headerNotOneLine(name);
  if (value.length > max) throw headerTooLong(name, max);
  return value;
}

/** X-User-Name, X-User-Email and X-User-Phone, checked like the body fields they stand for. */
export function userHeaders(req: Request): Customer['user'] {
  const name = header(req, 'X-User-Name', 100);
  const email = header(req, 'X-User-Email', 200);
  const phone = header(req, 'X-User-Phone', 30);
  if (email !== null && !isEmail(email)) throw headerNotAnEmail(email);
  if (phone !== null && !isPhone(phone)) throw headerNotAPhone(phone);
  return { name, email, phone };
}

/**
 * Resolves the caller: the shared public key, or a personal key (`fdp_…`). OAuth access
 * tokens join here as one more credential.
 */
export function customerAuth(ctx: Pick<AppContext, 'db' | 'config' | 'clock'>, keys: SigningKeys, limits: HostLimits) {
  const publicDigest = digest(ctx.config.publicSharedKey);
  return async (req: Request): Promise<Customer> => {
    // RFC 9728: the challenge points the client at the protected-resource metadata of what it called.
    const metadata = resourceMetadataUrl(ctx.config.publicUrl, req.path);
    const challenge = `Bearer realm="booking", resource_metadata="${metadata}", scope="read write"`;
    const token = bearerToken(req);
    if (!token) throw new AuthChallengeError(MISSING_CUSTOMER_CREDENTIALS, challenge);
    const user = userHeaders(req);
    if (timingSafeEqual(digest(token), publicDigest)) return { credential: 'public', email: null, scopes: ALL_SCOPES, user };
    if (token.startsWith('fdp_')) {
      const key = await lookUpCredential(limits, req, async () => (token.length <= 100 ? findPersonalKey(ctx.db, token) : undefined));
      if (key) return { credential: 'personal', email: key.email, scopes: ALL_SCOPES, user };
    }
    if (token.split('.').length === 3 && token.length <= 4096) {
      // An OAuth access token: our signature, type, issuer, this host as audience, not expired,
      // and its sign-in not revoked (checked on every use, so revocation reaches every replica at once).
      const claims = await lookUpCredential(limits, req, async () => {
        const verified = await keys.verify(token, ctx.config.publicUrl, resourcesOf(ctx.config.publicUrl), ctx.clock()).catch(() => undefined);
        return verified && !(await isSignInRevoked(ctx.db, verified.sid)) ? verified : undefined;
      });
      if (!claims) throw new AuthChallengeError(ACCESS_TOKEN_NOT_VALID, `${challenge}, error="invalid_token"`);
      const scopes = new Set(claims.scope.split(' ').filter((s): s is Scope => s === 'read' || s === 'write'));
      return { credential: 'oauth', email: claims.sub, scopes, user, resourceMetadata: metadata };
    }
    throw new AuthChallengeError(CUSTOMER_KEY_NOT_VALID, `${challenge}, error="invalid_token"`);
  };
}

/** Whose budget a call spends: the account, or for the key everyone shares, the client's address. */
export const customerBudget = (c: Customer, req: Request): string => (c.credential === 'public' ? `public:${clientIp(req)}` : `${c.credential}:${c.email}`);

/** A credential without the operation's scope gets 403 (never 401: it did authenticate). */
export function scopeGuard(publicUrl: string) {
  return (customer: Customer, op: Operation<Customer>): void => {
    if (op.scope && !customer.scopes.has(op.scope)) {
      throw new InsufficientScopeError(
        lacksScopeMessage(op.scope, op.name),
        `Bearer error="insufficient_scope", scope="${op.scope}", resource_metadata="${customer.resourceMetadata ?? resourceMetadataUrl(publicUrl, '/mcp')}"`,
      );
    }
  };
}
