import { normalizeEmail } from '@frontdesk/domain';
import { createPersonalKey, endKeySession, findPersonalKey, keySessionEmail, livePersonalKeys, revokePersonalKey, type Db } from '@frontdesk/db';

/** A customer's personal keys for the book host, managed on the pro host's /key page or its JSON twin. */

/** Issues a personal key for a verified address; the key is shown once. */
export function issuePersonalKey(db: Db, email: string) {
  return createPersonalKey(db, normalizeEmail(email));
}

/** The address's live keys, as the page lists them (hints, never the keys). */
export function personalKeysOf(db: Db, email: string) {
  return livePersonalKeys(db, email);
}

/** The live key a caller holds, if it is one. */
export function personalKeyOf(db: Db, key: string) {
  return findPersonalKey(db, key);
}

/** Revokes one of the address's own keys; another address's key id changes nothing. */
export function revokeOwnKey(db: Db, o: { keyId: string; email: string }, now: Date): Promise<boolean> {
  return revokePersonalKey(db, o.keyId, o.email, now);
}

/** The address a live /key session belongs to. */
export function keySessionOwner(db: Db, token: string, now: Date): Promise<string | null> {
  return keySessionEmail(db, token, now);
}

export function endKeySessionOf(db: Db, token: string): Promise<void> {
  return endKeySession(db, token);
}
