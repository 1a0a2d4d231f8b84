import { checkCheck, newBusiness, noBusiness, type NewBusinessInput } from '@frontdesk/domain';
import { insertPro, insertProCheck, issueProKey, lockPro, revokeProKeys, type Db, type NewCheck, type Pro, type ProCheck } from '@frontdesk/db';

/** Creates a business (checked, with the default price list and hours unless given) and its first key, shown once. */
export async function createBusiness(db: Db, input: NewBusinessInput): Promise<{ pro: Pro; apiKey: string }> {
  const business = newBusiness(input);
  return db.transaction().execute(async (trx) => {
    const pro = await insertPro(trx, business);
    return { pro, apiKey: await issueProKey(trx, pro.id) };
  });
}

/** Revokes every key of the business and issues a new one, shown once, in one transaction. */
export async function rotateBusinessKey(db: Db, proId: string, now: Date): Promise<string> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockPro(trx, proId))) throw noBusiness();
    await revokeProKeys(trx, proId, now);
    return issueProKey(trx, proId);
  });
}

/** Records a best-effort check of a business, as seen on the day it was made. */
export async function recordCheck(db: Db, c: NewCheck): Promise<ProCheck> {
  checkCheck({ ...c, checked_on: c.checkedOn });
  return insertProCheck(db, { ...c, subject: c.subject.trim() });
}
