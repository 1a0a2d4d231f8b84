import { randomBytes } from 'node:crypto';
import type { Db } from '../connect';
import { hashSecret, issueSecret, newToken, requestIdHashes, type HashKeys } from '../secrets';
import type { OAuthClient, OAuthRequest } from '../tables/oauth';

/**
 * The OAuth server's rows: clients, pending authorizations, codes, refresh-token families
 * and signing keys. Queries only; the protocol's rules live in @frontdesk/oauth.
 */

export async function insertOAuthClient(db: Db, name: string, redirectUris: string[]): Promise<OAuthClient> {
  return db
    .insertInto('oauth_clients')
    .values({ id: `fdc_${randomBytes(16).toString('base64url')}`, name, redirect_uris: redirectUris })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Writes a pre-registered client, or updates its redirect URIs. */
export async function upsertOAuthClient(db: Db, id: string, name: string, redirectUris: string[]): Promise<void> {
  await db
    .insertInto('oauth_clients')
    .values({ id, name, redirect_uris: redirectUris })
    .onConflict((oc) => oc.column('id').doUpdateSet({ redirect_uris: redirectUris }))
    .execute();
}

/** A client described by its metadata document: its name and redirect URIs follow the document. */
export async function upsertDocumentClient(db: Db, id: string, name: string, redirectUris: string[]): Promise<void> {
  await db
    .insertInto('oauth_clients')
    .values({ id, name, redirect_uris: redirectUris })
    .onConflict((oc) => oc.column('id').doUpdateSet({ name, redirect_uris: redirectUris }))
    .execute();
}

/** Records that a client got a code: clients never used are purged a day after registering. */
export async function markOAuthClientUsed(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('oauth_clients').set({ last_used_at: now }).where('id', '=', id).execute();
}

export async function findOAuthClient(db: Db, id: string): Promise<OAuthClient | undefined> {
  return db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Stores a pending authorization under a new unguessable id, which it returns once: the row
 * keeps only the id's keyed hash (its `id` column), so a copy of the table finishes nothing.
 */
export async function insertOAuthRequest(db: Db, r: Omit<OAuthRequest, 'created_at' | 'id'>, keys: HashKeys): Promise<string> {
  const id = `azr_${newToken()}`;
  await db
    .insertInto('oauth_requests')
    .values({ ...r, id: requestIdHashes(keys, id)[0]! })
    .execute();
  return id;
}

/** The pending authorization an id (as the browser holds it) names; the row's `id` is the stored hash. */
export async function findOAuthRequest(db: Db, id: string, keys: HashKeys): Promise<OAuthRequest | undefined> {
  return db.selectFrom('oauth_requests').selectAll().where('id', 'in', requestIdHashes(keys, id)).executeTakeFirst();
}

/** By the row's stored `id` (as findOAuthRequest returned it). */
export async function setOAuthRequestEmail(db: Db, storedId: string, email: string): Promise<void> {
  await db.updateTable('oauth_requests').set({ email }).where('id', '=', storedId).execute();
}

/** Deletes a pending authorization by its stored `id`; false if another request used it up first. */
export async function takeOAuthRequest(db: Db, storedId: string): Promise<boolean> {
  const deleted = await db.deleteFrom('oauth_requests').where('id', '=', storedId).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

export interface GrantRow {
  client_id: string;
  email: string;
  scope: string;
  resource: string;
  issuer: string;
}

/** Stores a new authorization code (only its hash); returns the code, once. */
export async function insertOAuthCode(db: Db, c: GrantRow & { redirect_uri: string; code_challenge: string; expires_at: Date; now: Date }): Promise<string> {
  const { now, ...row } = c;
  return issueSecret(newToken(), (code_hash) =>
    db
      .insertInto('oauth_codes')
      .values({ ...row, code_hash, consumed_at: null, created_at: now })
      .execute(),
  );
}

/** The code's row, locked; its `code_hash` names the sign-in (refresh family) the code starts. */
export async function lockOAuthCode(trx: Db, code: string) {
  return trx.selectFrom('oauth_codes').selectAll().where('code_hash', '=', hashSecret(code)).forUpdate().executeTakeFirst();
}

export async function consumeOAuthCode(trx: Db, codeHash: Buffer, now: Date): Promise<void> {
  await trx.updateTable('oauth_codes').set({ consumed_at: now }).where('code_hash', '=', codeHash).execute();
}

/** Stores a new refresh token of a family (only its hash); returns the token, once. */
export async function insertRefreshToken(db: Db, t: GrantRow & { family_id: string; expires_at: Date; now: Date }): Promise<string> {
  const { now, ...row } = t;
  return issueSecret(newToken(), (token_hash) =>
    db
      .insertInto('oauth_refresh_tokens')
      .values({ ...row, token_hash, used_at: null, revoked_at: null, created_at: now })
      .execute(),
  );
}

export async function lockRefreshToken(trx: Db, token: string) {
  return trx.selectFrom('oauth_refresh_tokens').selectAll().where('token_hash', '=', hashSecret(token)).forUpdate().executeTakeFirst();
}

export async function markRefreshTokenUsed(trx: Db, tokenHash: Buffer, now: Date): Promise<void> {
  await trx.updateTable('oauth_refresh_tokens').set({ used_at: now }).where('token_hash', '=', tokenHash).execute();
}

export async function refreshFamilyOf(db: Db, token: string, issuer: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('oauth_refresh_tokens')
    .select('family_id')
    .where('token_hash', '=', hashSecret(token))
    .where('issuer', '=', issuer)
    .executeTakeFirst();
  return row?.family_id;
}

/** Revokes every live token of a sign-in (a refresh-token family). */
export async function revokeRefreshFamily(db: Db, familyId: string, now: Date): Promise<void> {
  await db.updateTable('oauth_refresh_tokens').set({ revoked_at: now }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
  // Its access tokens carry the family as `sid`: recording it here stops them on their next use.
  await db
    .insertInto('oauth_revoked_sign_ins')
    .values({ family_id: familyId, revoked_at: now })
    .onConflict((oc) => oc.column('family_id').doNothing())
    .execute();
}

/** True when the sign-in (refresh family) an access token belongs to was revoked. */
export async function isSignInRevoked(db: Db, familyId: string): Promise<boolean> {
  return (await db.selectFrom('oauth_revoked_sign_ins').select('family_id').where('family_id', '=', familyId).executeTakeFirst()) !== undefined;
}

/** The active signing key and those retired since `since`, newest first. */
export async function usableSigningKeys(db: Db, since: Date) {
  return db
    .selectFrom('oauth_signing_keys')
    .selectAll()
    .where((eb) => eb.or([eb('retired_at', 'is', null), eb('retired_at', '>', since)]))
    .orderBy('created_at', 'desc')
    .execute();
}

/** Locks the signing keys, then says whether one is active: the first start makes one. */
export async function lockSigningKeys(trx: Db): Promise<boolean> {
  await trx.selectFrom('oauth_signing_keys').select('kid').forUpdate().execute();
  return (await trx.selectFrom('oauth_signing_keys').select('kid').where('retired_at', 'is', null).executeTakeFirst()) !== undefined;
}

/** Retires the active key and stores a new one (inside the caller's transaction). */
export async function replaceSigningKey(trx: Db, key: { kid: string; privateKeySealed: Buffer; publicJwk: object }, now: Date): Promise<void> {
  await trx.updateTable('oauth_signing_keys').set({ retired_at: now }).where('retired_at', 'is', null).execute();
  await trx
    .insertInto('oauth_signing_keys')
    .values({ kid: key.kid, private_key_sealed: key.privateKeySealed, public_jwk: JSON.stringify(key.publicJwk), retired_at: null })
    .execute();
}
