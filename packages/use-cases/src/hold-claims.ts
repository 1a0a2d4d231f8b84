import { ownsHold, type HoldOwner } from '@frontdesk/domain';
import { lockHold, type Db, type Hold, type Pro } from '@frontdesk/db';

/** Whose a hold is, as the calls that book with or release one claim it (apart from holds.ts, which book.ts would otherwise import in a circle). */

/** Who asks to use or release a hold, and whether their credential is one many share (the public key). */
export interface HoldClaim {
  id: string;
  owner: HoldOwner;
  shared: boolean;
}

export const claimedBy = (held: Hold, claim: HoldClaim) =>
  ownsHold({ credential: held.owner_credential, email: held.owner_email, phone: held.owner_phone }, claim.owner, claim.shared);

/** The hold a claim names, locked (after its pro's row: the lock order everywhere), when the claimant owns it. */
export async function lockHeld(trx: Db, pro: Pro, claim: HoldClaim) {
  const held = await lockHold(trx, claim.id);
  if (!held || held.pro_id !== pro.id) return undefined;
  return claimedBy(held, claim) ? held : undefined;
}
