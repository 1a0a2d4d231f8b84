import type { Db } from '../connect';
import { hashSecret, newToken } from '../ids';
import type { SignInCode } from '../tables/sign-in';

export async function insertSignInCode(trx: Db, code: { id: string; email: string; codeHash: Buffer; expiresAt: Date; now: Date }): Promise<void> {
  await trx
    .insertInto('sign_in_codes')
    .values({ id: code.id, email: code.email, code_hash: code.codeHash, expires_at: code.expiresAt, consumed_at: null, created_at: code.now })
    .execute();
}

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
  const token = newToken();
  await db
    .insertInto('key_sessions')
    .values({ token_hash: hashSecret(token), email, expires_at: expiresAt, created_at: now })
    .execute();
  return token;
}

export async function keySessionEmail(db: Db, token: string, now: Date): Promise<string | null> {
  const row = await db.selectFrom('key_sessions').select(['email', 'expires_at']).where('token_hash', '=', hashSecret(token)).executeTakeFirst();
  return row && row.expires_at.getTime() > now.getTime() ? row.email : null;
}

export async function endKeySession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('key_sessions').where('token_hash', '=', hashSecret(token)).execute();
}
