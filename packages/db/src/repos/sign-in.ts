import type { Db } from '../connect';
import { newId } from '../ids';
import { hashSecret, issueSecret, newSignInCode, newToken, signInCodeHash, signInCodeMatches, type HashKeys } from '../secrets';
import type { SignInCode } from '../tables/sign-in-codes';

/**
 * The keys short secrets (sign-in codes, pending authorization ids) are stored under as
 * HMACs: derived from KEY_ENCRYPTION_KEY by the host (its KeySealer), the current one first.
 */
export type SecretHashKeys = HashKeys;

/** Stores a new sign-in code for an address (only its keyed hash); returns the code, once. */
export async function insertSignInCode(trx: Db, c: { email: string; expiresAt: Date; now: Date; keys: SecretHashKeys }): Promise<string> {
  const id = newId('sic');
  const code = newSignInCode();
  await trx
    .insertInto('sign_in_codes')
    .values({ id, email: c.email, code_hash: signInCodeHash(c.keys, id, code), expires_at: c.expiresAt, consumed_at: null, created_at: c.now })
    .execute();
  return code;
}

/** Whether a code typed is the one a row holds. */
export const isCodeOf = (row: Pick<SignInCode, 'id' | 'code_hash'>, code: string, keys: SecretHashKeys) => signInCodeMatches(keys, row.id, code, row.code_hash);

/** The newest code sent to an address, locked for the check that follows. */
export async function lockNewestCode(trx: Db, email: string): Promise<SignInCode | undefined> {
  return trx.selectFrom('sign_in_codes').selectAll().where('email', '=', email).orderBy('created_at', 'desc').limit(1).forUpdate().executeTakeFirst();
}

export async function countWrongTry(trx: Db, code: SignInCode): Promise<void> {
  await trx
    .updateTable('sign_in_codes')
    .set({ attempts: code.attempts + 1 })
    .where('id', '=', code.id)
    .execute();
}

export async function consumeCode(trx: Db, codeId: string, now: Date): Promise<void> {
  await trx.updateTable('sign_in_codes').set({ consumed_at: now }).where('id', '=', codeId).execute();
}

/** A short browser session after signing in; the token is stored hashed. */
export async function createKeySession(db: Db, email: string, expiresAt: Date, now: Date): Promise<string> {
  return issueSecret(newToken(), (token_hash) => db.insertInto('key_sessions').values({ token_hash, email, expires_at: expiresAt, created_at: now }).execute());
}

export async function keySessionEmail(db: Db, token: string, now: Date): Promise<string | null> {
  const row = await db.selectFrom('key_sessions').select('email').where('token_hash', '=', hashSecret(token)).where('expires_at', '>', now).executeTakeFirst();
  return row?.email ?? null;
}

export async function endKeySession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('key_sessions').where('token_hash', '=', hashSecret(token)).execute();
}
