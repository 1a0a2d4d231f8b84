import { normalizeEmail } from '@frontdesk/domain';
import type { Db } from '../connect';
import { hashSecret, newId, newKey } from '../ids';
import type { PersonalKey } from '../tables/personal-keys';

/** Issues a personal key (`fdp_…`) for a customer's email; the key is returned once. */
export async function createPersonalKey(db: Db, email: string): Promise<{ key: string; record: PersonalKey }> {
  const key = newKey('fdp');
  const record = await db
    .insertInto('personal_keys')
    .values({ id: newId('key'), email: normalizeEmail(email), key_hash: hashSecret(key), key_hint: key.slice(-4), revoked_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { key, record };
}

export async function findPersonalKey(db: Db, key: string): Promise<PersonalKey | undefined> {
  return db.selectFrom('personal_keys').selectAll().where('key_hash', '=', hashSecret(key)).where('revoked_at', 'is', null).executeTakeFirst();
}

export async function revokePersonalKey(db: Db, id: string, email: string): Promise<boolean> {
  const res = await db
    .updateTable('personal_keys')
    .set({ revoked_at: new Date() })
    .where('id', '=', id)
    .where('email', '=', email.toLowerCase())
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
