import {
  BAD_LEAD_REASON_TEXT,
  addOnsNotOffered,
  creditPreparedMessage,
  creditRequestText,
  freeLeadNotFlagged,
  localDate,
  noLead,
  notFlagged,
  reasonContradicted,
  recordEvidence,
  toUsd,
  type BadLeadReason,
} from '@frontdesk/domain';
import { flagLead, getLead, leadHasBooking, type Db, type Pro } from '@frontdesk/db';

/**
 * Flags a paid lead as bad and prepares the lead-credit request: the record's own dated
 * evidence, then the pro's lines. Refused for a free lead, or a reason the record
 * contradicts. Never submitted: the pro pastes it into the platform's form.
 */
export async function flagBadLead(db: Db, pro: Pro, input: { lead_id: string; reason: BadLeadReason; evidence?: string[] }, now: Date) {
  const { lead_id: leadId, reason } = input;
  const givenEvidence = input.evidence ?? [];
  const lead = await getLead(db, pro.id, leadId);
  if (!lead) throw noLead(leadId);
  if (lead.lead_cost_cents <= 0) throw freeLeadNotFlagged(lead.id);
  const list = pro.price_list;
  const contradiction = reasonContradicted(reason, {
    booked: lead.status === 'booked' || (await leadHasBooking(db, lead.id)),
    zip: lead.zip,
    zipServed: lead.zip !== null && pro.service_zips.includes(lead.zip),
    serviceOffered: Boolean(list.clean_types[lead.clean_type]) && addOnsNotOffered(list, lead.add_ons).length === 0,
  });
  if (contradiction) throw notFlagged(contradiction);
  const given = givenEvidence.map((e) => e.trim()).filter(Boolean);
  const flagged = await flagLead(db, lead, { reason, evidence: given, now });
  const day = (d: Date) => localDate(d, pro.timezone);
  const evidence = [
    ...recordEvidence({
      day,
      quotedAt: flagged.quoted_at,
      source: flagged.source,
      leadRef: flagged.lead_ref,
      costCents: flagged.lead_cost_cents,
      zip: flagged.zip,
      servedZips: pro.service_zips,
      cleanType: flagged.clean_type,
      cleanTypeOffered: Boolean(list.clean_types[flagged.clean_type]),
      followUpsSent: flagged.follow_ups_sent,
      lastFollowUpAt: flagged.last_follow_up_at,
    }),
    ...given,
  ];
  const leadDate = day(flagged.quoted_at);
  return {
    lead_id: flagged.id,
    platform: flagged.source,
    lead_ref: flagged.lead_ref,
    lead_date: leadDate,
    amount: toUsd(flagged.lead_cost_cents),
    reason,
    reason_text: BAD_LEAD_REASON_TEXT[reason],
    evidence,
    request_text: creditRequestText({ source: flagged.source, leadRef: flagged.lead_ref, leadDate, costCents: flagged.lead_cost_cents, reason, evidence }),
    submitted: false,
    message: creditPreparedMessage(flagged.source, flagged.lead_cost_cents),
  };
}
