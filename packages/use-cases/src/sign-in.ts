import {
  KEY_SESSION_MINUTES,
  SIGN_IN_CODE_MINUTES,
  SIGN_IN_MAX_ATTEMPTS,
  codeExpired,
  codeFormat,
  codeTriedTooOften,
  codeUsed,
  codeWrong,
  noCodeSent,
  normalizeEmail,
  signInMail,
} from '@frontdesk/domain';
import {
  consumeCode,
  countWrongTry,
  createKeySession,
  enqueueMail,
  insertSignInCode,
  isCodeOf,
  lockNewestCode,
  type Db,
  type SecretHashKeys,
} from '@frontdesk/db';

/**
 * Sends a one-time sign-in code to an email address: six digits, valid SIGN_IN_CODE_MINUTES,
 * used once, stored only as an HMAC of its row id and the code under the host's key (`keys`,
 * derived from KEY_ENCRYPTION_KEY). The mail goes into the outbox in the same transaction, so
 * a code exists exactly when its mail will be sent.
 */
export async function requestSignInCode(
  db: Db,
  rawEmail: string,
  now: Date,
  { purpose, keys }: { purpose: string; keys: SecretHashKeys },
): Promise<{ email: string; expiresAt: Date }> {
  const email = normalizeEmail(rawEmail);
  // How often a code may be asked for is the HTTP layer's (shared rate limits per address and per client IP).
  return db.transaction().execute(async (trx) => {
    const expiresAt = new Date(now.getTime() + SIGN_IN_CODE_MINUTES * 60_000);
    const code = await insertSignInCode(trx, { email, expiresAt, now, keys });
    await enqueueMail(trx, { to: email, ...signInMail(code, purpose), now, secret: true });
    return { email, expiresAt };
  });
}

/**
 * Checks a code against the newest one sent to the address. Wrong codes count against it
 * (five tries); an expired or used code is refused. Returns the verified email.
 */
export async function verifySignInCode(db: Db, rawEmail: string, code: string, { now, keys }: { now: Date; keys: SecretHashKeys }): Promise<string> {
  const email = normalizeEmail(rawEmail);
  if (!/^\d{6}$/.test(code.trim())) throw codeFormat();
  // The outcome is decided and recorded in one transaction and thrown after it commits, so
  // a wrong try is counted even though the call fails.
  const outcome = await db.transaction().execute(async (trx) => {
    const row = await lockNewestCode(trx, email);
    if (!row) return noCodeSent(email);
    if (row.consumed_at) return codeUsed();
    if (row.expires_at.getTime() <= now.getTime()) return codeExpired();
    if (row.attempts >= SIGN_IN_MAX_ATTEMPTS) return codeTriedTooOften();
    if (!isCodeOf(row, code.trim(), keys)) {
      await countWrongTry(trx, row);
      return codeWrong(SIGN_IN_MAX_ATTEMPTS - row.attempts - 1);
    }
    await consumeCode(trx, row.id, now);
    return email;
  });
  if (outcome instanceof Error) throw outcome;
  return outcome;
}

/** Opens a short /key page session for a verified email; returns its token. */
export async function openKeySession(db: Db, email: string, now: Date): Promise<string> {
  return createKeySession(db, email, new Date(now.getTime() + KEY_SESSION_MINUTES * 60_000), now);
}
