import type { Db } from '../connect';
import { newId } from '../ids';
import { hashSecret, newKey, secretHint } from '../secrets';
import type { PersonalKey } from '../tables/personal-keys';

/** Issues a personal key (`fdp_…`) for a customer's address (as given: normalized by the caller); the key is returned once. */
export async function createPersonalKey(db: Db, email: string): Promise<{ key: string; record: PersonalKey }> {
  const key = newKey('fdp');
  const record = await db
    .insertInto('personal_keys')
    .values({ id: newId('key'), email, key_hash: hashSecret(key), key_hint: secretHint(key), revoked_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { key, record };
}

export async function findPersonalKey(db: Db, key: string): Promise<PersonalKey | undefined> {
  return db.selectFrom('personal_keys').selectAll().where('key_hash', '=', hashSecret(key)).where('revoked_at', 'is', null).executeTakeFirst();
}

/** An address's live keys, oldest first: what the /key page lists (never the keys themselves). */
export async function livePersonalKeys(db: Db, email: string): Promise<Pick<PersonalKey, 'id' | 'key_hint' | 'created_at'>[]> {
  return db
    .selectFrom('personal_keys')
    .select(['id', 'key_hint', 'created_at'])
    .where('email', '=', email)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .execute();
}

/** Revokes one of the address's live keys; false when it had no such key. */
export async function revokePersonalKey(db: Db, id: string, email: string, now: Date): Promise<boolean> {
  const revoked = await db
    .updateTable('personal_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('email', '=', email)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return revoked !== undefined;
}
