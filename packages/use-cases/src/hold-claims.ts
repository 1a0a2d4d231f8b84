import { ownsHold, type HoldOwner } from '@frontdesk/domain';
import { lockHold, type Db, type Pro } from '@frontdesk/db';

/*
 * Whose a hold is, asked by the booking that uses it and the release that frees it. Its own
 * module so that book.ts (booking with a hold) and holds.ts (taking one, which prices like a
 * booking) need not import each other.
 */

/** Who asks to use or release a hold, and whether their credential is one many share (the public key). */
export interface HoldClaim {
  id: string;
  owner: HoldOwner;
  shared: boolean;
}

/** The hold a claim names, locked (after its pro's row: the lock order everywhere), when the claimant owns it. */
export async function lockHeld(trx: Db, pro: Pro, claim: HoldClaim) {
  const held = await lockHold(trx, claim.id);
  if (!held || held.pro_id !== pro.id) return undefined;
  const owner = { credential: held.owner_credential, email: held.owner_email, phone: held.owner_phone };
  return ownsHold(owner, claim.owner, claim.shared) ? held : undefined;
}
