import { isLoopbackHost } from '@frontdesk/http';
import { createHash } from 'node:crypto';
import {
  consumeOAuthCode,
  findOAuthClient,
  insertOAuthClient,
  insertOAuthCode,
  insertRefreshToken,
  lockOAuthCode,
  lockRefreshToken,
  markOAuthClientUsed,
  markRefreshTokenUsed,
  refreshFamilyOf,
  revokeRefreshFamily,
  upsertDocumentClient,
  upsertOAuthClient,
  type Db,
  type OAuthClient,
} from '@frontdesk/db';
import { oauthWords } from '@frontdesk/domain';
import { InvalidClientError, InvalidGrantError, InvalidTargetError } from './errors';
import { fetchClientMetadata, isMetadataUrl, type ClientMetadataFetchOptions } from './client-metadata';
import { OWN_CLIENT_NAME } from './client-name';

export const CODE_SECONDS = 60;
export const REQUEST_MINUTES = 15;
export const REFRESH_DAYS = 30;
export const SCOPES = ['read', 'write'] as const;

export { checkRedirectUri } from './redirect-uri';

/**
 * Whether a redirect URI asked for is one the client registered. A native app's loopback
 * redirect matches on any port (RFC 8252 §7.3): it listens on whatever port is free.
 */
export function redirectUriMatches(registered: readonly string[], asked: string): boolean {
  if (registered.includes(asked)) return true;
  let url: URL;
  try {
    url = new URL(asked);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname)) return false;
  return registered.some((r) => {
    const candidate = new URL(r);
    if (candidate.protocol !== 'http:' || candidate.hostname !== url.hostname) return false;
    candidate.port = url.port;
    return candidate.href === url.href;
  });
}

export { OWN_CLIENT_NAME, clientNameProblem, imitatesOwnClient, lookalikeKey } from './client-name';

export interface PublicClient {
  id: string;
  redirectUris: string[];
}

export async function registerClient(db: Db, name: string, redirectUris: string[]): Promise<OAuthClient> {
  return insertOAuthClient(db, name, redirectUris);
}

// The configured public client is written (or its redirect URIs updated) once per process.
const publicClientWritten = new WeakMap<Db, Promise<unknown>>();

/**
 * A registered client, the pre-registered public client from the configuration, or a client
 * whose id is the URL of its metadata document (fetched under guards; throws
 * ClientMetadataError with the reason when it cannot be used).
 */
export async function findClient(db: Db, id: string, pub: PublicClient, documents: ClientMetadataFetchOptions = {}): Promise<OAuthClient | undefined> {
  if (isMetadataUrl(id)) {
    const doc = await fetchClientMetadata(id, documents);
    await upsertDocumentClient(db, doc.clientId, doc.name, doc.redirectUris);
    return findOAuthClient(db, id);
  }
  if (id === pub.id) {
    let written = publicClientWritten.get(db);
    if (!written) {
      written = upsertOAuthClient(db, pub.id, OWN_CLIENT_NAME, pub.redirectUris);
      publicClientWritten.set(db, written);
      written.catch(() => publicClientWritten.delete(db));
    }
    await written;
  }
  return findOAuthClient(db, id);
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

export interface Grant {
  clientId: string;
  email: string;
  scope: string;
  resource: string;
  /** The host whose authorization server issued it: only that host redeems or rotates it. */
  issuer: string;
}

/** A grant as issued: with the sign-in (refresh family) its tokens belong to. */
export interface IssuedGrant extends Grant {
  familyId: string;
}

/** A single-use authorization code for a signed-in, consenting person. */
export async function issueCode(db: Db, g: Grant & { redirectUri: string; codeChallenge: string }, now: Date): Promise<string> {
  const code = await insertOAuthCode(db, {
    ...grantRow(g),
    redirect_uri: g.redirectUri,
    code_challenge: g.codeChallenge,
    expires_at: new Date(now.getTime() + CODE_SECONDS * 1000),
    now,
  });
  await markOAuthClientUsed(db, g.clientId, now);
  return code;
}

async function issueRefresh(db: Db, familyId: string, g: Grant, now: Date): Promise<string> {
  return insertRefreshToken(db, {
    family_id: familyId,
    ...grantRow(g),
    expires_at: new Date(now.getTime() + REFRESH_DAYS * 86_400_000),
    now,
  });
}

const grantRow = (g: Grant) => ({ client_id: g.clientId, email: g.email, scope: g.scope, resource: g.resource, issuer: g.issuer });

/**
 * Trades a code for a grant and the first refresh token of its family. A code works once:
 * presented again, it is refused and every token issued from it is revoked (RFC 6749 §4.1.2).
 */
export async function redeemCode(
  db: Db,
  p: { code: string; clientId: string; redirectUri: string | undefined; verifier: string | undefined; resource: string | undefined; issuer: string },
  now: Date,
): Promise<{ grant: IssuedGrant; refreshToken: string }> {
  const result = await db.transaction().execute(async (trx) => {
    const row = await lockOAuthCode(trx, p.code);
    // Another host's code is no code here: it is neither spent nor revoked by being shown.
    if (!row || row.issuer !== p.issuer) return new InvalidGrantError(oauthWords.codeNotValid());
    // The sign-in a code starts is named after the code (its hash), so a code used twice revokes what it issued.
    const familyId = row.code_hash.toString('hex');
    if (row.consumed_at) {
      await revokeRefreshFamily(trx, familyId, now);
      return new InvalidGrantError(oauthWords.codeReused());
    }
    if (row.expires_at.getTime() <= now.getTime()) return new InvalidGrantError(oauthWords.codeExpired());
    if (row.client_id !== p.clientId) return new InvalidGrantError(oauthWords.codeOfAnotherClient());
    if (p.redirectUri !== row.redirect_uri) return new InvalidGrantError(oauthWords.redirectUriDiffers());
    if (!p.verifier || !/^[A-Za-z0-9._~-]{43,128}$/.test(p.verifier)) return new InvalidGrantError(oauthWords.verifierMalformed());
    if (s256(p.verifier) !== row.code_challenge) return new InvalidGrantError(oauthWords.verifierWrong());
    // A request the code cannot serve leaves it unspent: the client may retry correctly.
    if (p.resource !== undefined && p.resource !== row.resource) return new InvalidTargetError(oauthWords.resourceDiffers());
    await consumeOAuthCode(trx, row.code_hash, now);
    const grant = { clientId: row.client_id, email: row.email, scope: row.scope, resource: row.resource, issuer: row.issuer, familyId };
    return { grant, refreshToken: await issueRefresh(trx, familyId, grant, now) };
  });
  if (result instanceof Error) throw result;
  return result;
}

/**
 * Rotates a refresh token: the old one is spent and a new one of the same family issued.
 * A spent token presented again means it leaked: the whole family is revoked.
 */
export async function rotateRefresh(
  db: Db,
  p: { token: string; clientId: string; scope?: string; issuer: string },
  now: Date,
): Promise<{ grant: IssuedGrant; refreshToken: string }> {
  const result = await db.transaction().execute(async (trx) => {
    const row = await lockRefreshToken(trx, p.token);
    // Another host's refresh token is no token here: it is neither used nor its sign-in revoked.
    if (!row || row.issuer !== p.issuer || row.revoked_at) return new InvalidGrantError(oauthWords.refreshNotValid());
    if (row.used_at) {
      await revokeRefreshFamily(trx, row.family_id, now);
      return new InvalidGrantError(oauthWords.refreshReused());
    }
    if (row.expires_at.getTime() <= now.getTime()) return new InvalidGrantError(oauthWords.refreshExpired());
    if (row.client_id !== p.clientId) return new InvalidClientError(oauthWords.refreshOfAnotherClient());
    let scope = row.scope;
    if (p.scope !== undefined) {
      const asked = p.scope.split(' ').filter(Boolean);
      if (asked.some((s) => !row.scope.split(' ').includes(s))) return new InvalidGrantError(oauthWords.scopeExceedsGrant());
      scope = asked.join(' ');
    }
    await markRefreshTokenUsed(trx, row.token_hash, now);
    const grant = { clientId: row.client_id, email: row.email, scope, resource: row.resource, issuer: row.issuer, familyId: row.family_id };
    return { grant, refreshToken: await issueRefresh(trx, row.family_id, grant, now) };
  });
  if (result instanceof Error) throw result;
  return result;
}

/**
 * RFC 7009: revoking a refresh token, or an access token (found by its `sid`), revokes the
 * whole sign-in: every refresh token of the family and every access token issued from it.
 * Unknown tokens are not an error.
 */
export async function revokeSignIn(
  db: Db,
  r: { token: string; issuer: string; accessTokenSid: (token: string) => Promise<string | null> },
  now: Date,
): Promise<void> {
  // Another host's refresh token is no token here, as at /token: its sign-in is not ended.
  const familyId = (await refreshFamilyOf(db, r.token, r.issuer)) ?? (await r.accessTokenSid(r.token));
  if (familyId) await revokeRefreshFamily(db, familyId, now);
}
