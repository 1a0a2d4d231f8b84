import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { InvalidInputError, TooManyRequestsError } from '@frontdesk/domain';
import type { Db } from '../connect';
import { hashSecret, newId, newToken } from '../ids';
import { enqueueMail } from './outbox';
import { normalizeEmail } from './customers';

export const SIGN_IN_CODE_MINUTES = 10;
export const SIGN_IN_MAX_ATTEMPTS = 5;
export const SIGN_IN_MAX_CODES_PER_HOUR = 5;
export const KEY_SESSION_MINUTES = 30;

const codeHash = (id: string, code: string) => createHash('sha256').update(`${id}:${code}`).digest();

/**
 * Sends a one-time sign-in code to an email address: six digits, valid 10 minutes, used
 * once, stored only as a hash salted with its row id. The mail goes into the outbox in the
 * same transaction, so a code exists exactly when its mail will be sent.
 */
export async function requestSignInCode(db: Db, rawEmail: string, now: Date, purpose: string): Promise<{ email: string; expiresAt: Date }> {
  const email = normalizeEmail(rawEmail);
  return db.transaction().execute(async (trx) => {
    const recent = await trx
      .selectFrom('sign_in_codes')
      .select(trx.fn.countAll<number>().as('n'))
      .where('email', '=', email)
      .where('created_at', '>', new Date(now.getTime() - 60 * 60_000))
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= SIGN_IN_MAX_CODES_PER_HOUR) {
      throw new TooManyRequestsError(`Too many codes were sent to ${email} in the last hour; wait a while, then ask again.`);
    }
    const id = newId('sic');
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const expiresAt = new Date(now.getTime() + SIGN_IN_CODE_MINUTES * 60_000);
    await trx.insertInto('sign_in_codes').values({ id, email, code_hash: codeHash(id, code), expires_at: expiresAt, consumed_at: null, created_at: now }).execute();
    await enqueueMail(trx, {
      to: email,
      subject: `Your Front Desk code: ${code}`,
      text: `Your code to ${purpose} is ${code}.\n\nIt works once, for ${SIGN_IN_CODE_MINUTES} minutes. If you did not ask for it, ignore this email.`,
      now,
    });
    return { email, expiresAt };
  });
}

/**
 * Checks a code against the newest one sent to the address. Wrong codes count against it
 * (five tries); an expired or used code is refused. Returns the verified email.
 */
export async function verifySignInCode(db: Db, rawEmail: string, code: string, now: Date): Promise<string> {
  const email = normalizeEmail(rawEmail);
  if (!/^\d{6}$/.test(code.trim())) throw new InvalidInputError('The code is the 6 digits from the email.');
  // The outcome is decided and recorded in one transaction and thrown after it commits, so
  // a wrong try is counted even though the call fails.
  const outcome = await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('sign_in_codes')
      .selectAll()
      .where('email', '=', email)
      .orderBy('created_at', 'desc')
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
    const again = 'Ask for a new code.';
    if (!row) return new InvalidInputError(`No code was sent to ${email}. ${again}`);
    if (row.consumed_at) return new InvalidInputError(`That code was already used. ${again}`);
    if (row.expires_at.getTime() <= now.getTime()) return new InvalidInputError(`That code has expired. ${again}`);
    if (row.attempts >= SIGN_IN_MAX_ATTEMPTS) return new TooManyRequestsError(`Too many wrong tries for that code. ${again}`);
    if (!timingSafeEqual(codeHash(row.id, code.trim()), row.code_hash)) {
      await trx.updateTable('sign_in_codes').set({ attempts: row.attempts + 1 }).where('id', '=', row.id).execute();
      const left = SIGN_IN_MAX_ATTEMPTS - row.attempts - 1;
      return new InvalidInputError(left > 0 ? `That code is not right; ${left} ${left === 1 ? 'try' : 'tries'} left.` : `That code is not right. ${again}`);
    }
    await trx.updateTable('sign_in_codes').set({ consumed_at: now }).where('id', '=', row.id).execute();
    return email;
  });
  if (outcome instanceof Error) throw outcome;
  return outcome;
}

/** A short browser session on the /key page after signing in; the token is stored hashed. */
export async function createKeySession(db: Db, email: string, now: Date): Promise<string> {
  const token = newToken();
  await db
    .insertInto('key_sessions')
    .values({ token_hash: hashSecret(token), email, expires_at: new Date(now.getTime() + KEY_SESSION_MINUTES * 60_000), created_at: now })
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
