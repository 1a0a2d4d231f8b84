import { DASHBOARD_SESSION_HOURS, alreadyOwnsBusiness, checkCheck, newBusiness, noBusiness, normalizeEmail, type NewBusinessInput } from '@frontdesk/domain';
import {
  createProSession,
  endProSessionsOf,
  insertPro,
  insertProCheck,
  isOwnerEmailTaken,
  issueProKey,
  lockPro,
  proOwnedBy,
  revokeProKeys,
  setOwnerEmail,
  type Db,
  type NewCheck,
  type Pro,
  type ProCheck,
} from '@frontdesk/db';

/**
 * Creates a business (checked, with the default price list and hours unless given) and its first
 * key, shown once; with `sessionFrom`, also a dashboard session for its owner from that instant
 * (a sign-up on the page, whose code just proved the address), in the same transaction.
 */
export async function createBusiness(
  db: Db,
  input: NewBusinessInput,
  o: { sessionFrom?: Date } = {},
): Promise<{ pro: Pro; apiKey: string; session: string | null }> {
  const business = newBusiness(input);
  return db.transaction().execute(async (trx) => {
    const pro = await insertPro(trx, business);
    const apiKey = await issueProKey(trx, pro.id);
    const from = o.sessionFrom;
    const session = from ? await createProSession(trx, pro.id, new Date(from.getTime() + DASHBOARD_SESSION_HOURS * 3_600_000), from) : null;
    return { pro, apiKey, session };
  });
}

/** The refusal for an owner address another business already has, naming that business. */
async function ownerTaken(db: Db, owner: string): Promise<Error> {
  return alreadyOwnsBusiness(owner, (await proOwnedBy(db, owner))?.name ?? 'a business');
}

/**
 * Creates a business an operator sets up for its owner (`pro create`): the owner's address,
 * when given, is the one that signs in on the dashboard, as a sign-up's verified address is.
 */
export async function createOwnedBusiness(db: Db, input: NewBusinessInput): Promise<{ pro: Pro; apiKey: string }> {
  const owner = input.owner_email ? normalizeEmail(input.owner_email, 'owner') : null;
  if (owner && (await proOwnedBy(db, owner))) throw await ownerTaken(db, owner);
  try {
    return await createBusiness(db, { ...input, owner_email: owner });
  } catch (err) {
    if (owner && isOwnerEmailTaken(err)) throw await ownerTaken(db, owner);
    throw err;
  }
}

/** Gives a business another owner address (null: none); the dashboard sessions the old one opened end. */
export async function changeBusinessOwner(db: Db, proId: string, ownerEmail: string | null): Promise<Pro> {
  const owner = ownerEmail === null ? null : normalizeEmail(ownerEmail, 'owner');
  try {
    return await db.transaction().execute(async (trx) => {
      if (!(await lockPro(trx, proId))) throw noBusiness();
      const pro = (await setOwnerEmail(trx, proId, owner))!;
      await endProSessionsOf(trx, proId);
      return pro;
    });
  } catch (err) {
    if (owner && isOwnerEmailTaken(err)) throw await ownerTaken(db, owner);
    throw err;
  }
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
