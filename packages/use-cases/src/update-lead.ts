import { leadUpdatedMessage, noLead, nothingToUpdate } from '@frontdesk/domain';
import { applyLeadChange, lockLead, type Db, type LeadChange, type Pro } from '@frontdesk/db';
import { presentLead } from './present';

/**
 * Applies update_lead on the locked row: contacted=true records one more follow-up sent
 * (count and time), which moves the next due time.
 */
export async function updateLead(db: Db, pro: Pro, input: LeadChange & { lead_id: string }, now: Date) {
  const { lead_id: leadId, ...change } = input;
  // A rule across fields lives here, not in the schema: strict MCP clients refuse a top-level anyOf.
  if (change.status === undefined && change.contacted === undefined && change.notes === undefined) throw nothingToUpdate();
  const lead = await db.transaction().execute(async (trx) => {
    const locked = await lockLead(trx, pro.id, leadId);
    if (!locked) throw noLead(leadId);
    return applyLeadChange(trx, locked, change, now);
  });
  const shown = presentLead(lead, pro.timezone);
  return { ...shown, message: leadUpdatedMessage(change, lead.follow_ups_sent, lead.status, shown.next_follow_up_due) };
}
