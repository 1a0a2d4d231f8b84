import {
  LEAD_OPEN_TIMES_SHOWN,
  REPLY_CHANNEL,
  formatLabel,
  isPlatformSource,
  leadNotices,
  normalizeJob,
  presentOpenTime,
  presentQuote,
  priceJob,
  replyDraft,
  type BadLeadReason,
  type CleanType,
  type Frequency,
  type LeadSource,
} from '@frontdesk/domain';
import { findDuplicateLead, insertLead, type Db, type Pro } from '@frontdesk/db';
import { draftInput, draftTimes, replyTimes } from './lead-drafts';
import { presentLead } from './present';

export interface LogLeadInput {
  source: LeadSource;
  lead_ref?: string;
  customer_first_name?: string;
  contact?: string;
  zip?: string;
  lead_cost?: number;
  bedrooms?: number;
  bathrooms?: number;
  clean_type?: CleanType;
  sqft?: number;
  frequency?: Frequency;
  add_ons?: string[];
  pets?: boolean;
}

const given = (v?: string) => (v?.trim() ? v.trim() : null);

/**
 * Logs a lead: prices it when its size is known, stores it (never the name or contact of a
 * platform lead), and answers with the quote, a few open times, a reply draft, and what the
 * pro should know (dropped fields, out of area, not offered, a likely double charge).
 */
export async function logLead(db: Db, pro: Pro, input: LogLeadInput, o: { bookingUrl: string; now: Date }) {
  const { bookingUrl, now } = o;
  const platform = isPlatformSource(input.source);
  const dropped = platform ? (['customer_first_name', 'contact'] as const).filter((f) => given(input[f]) !== null) : [];
  const known = input.bedrooms !== undefined && input.bathrooms !== undefined;
  const job = normalizeJob({ ...input, bedrooms: input.bedrooms ?? 0, bathrooms: input.bathrooms ?? 1 });
  const quote = known ? priceJob(job, pro.price_list) : null;
  const leadRef = given(input.lead_ref);
  const duplicate = leadRef ? await findDuplicateLead(db, pro.id, input.source, leadRef) : undefined;

  const lead = await insertLead(db, {
    proId: pro.id,
    source: input.source,
    leadRef,
    firstName: platform ? null : given(input.customer_first_name),
    contact: platform ? null : given(input.contact),
    zip: input.zip ?? null,
    leadCostCents: Math.round((input.lead_cost ?? 0) * 100),
    job: { ...job, bedrooms: input.bedrooms ?? null, bathrooms: input.bathrooms ?? null },
    quote,
    now,
  });
  const d = draftInput(pro, bookingUrl, lead, quote);
  const times = await replyTimes(db, pro, d, now);
  d.openTimes = draftTimes(pro, times, now);

  const notices: string[] = [];
  const badReasons: BadLeadReason[] = [];
  if (dropped.length) notices.push(leadNotices.dropped(dropped));
  if (!known) notices.push(leadNotices.noSize);
  if (d.outOfAreaZip) {
    notices.push(leadNotices.outOfArea(d.outOfAreaZip, pro.service_zips));
    badReasons.push('out_of_area');
  }
  if (d.cleanTypeNotOffered) {
    notices.push(leadNotices.cleanTypeNotOffered(d.cleanTypeNotOffered.asked));
    badReasons.push('service_not_offered');
  }
  if (d.addOnsNotOffered.length) notices.push(leadNotices.addOnsNotOffered(d.addOnsNotOffered));
  if (duplicate && leadRef) {
    notices.push(leadNotices.duplicate(input.source, leadRef, duplicate.id, formatLabel(duplicate.quoted_at, pro.timezone)));
    badReasons.push('duplicate');
  }
  const paid = lead.lead_cost_cents > 0;
  const shown = presentLead(lead, pro.timezone);
  return {
    lead_id: lead.id,
    status: lead.status,
    lead: shown,
    quote: quote && !d.cleanTypeNotOffered ? { ...presentQuote(quote), firm: quote.unpriced.length === 0, unpriced: quote.unpriced } : null,
    open_times: times.slice(0, LEAD_OPEN_TIMES_SHOWN).map((t) => presentOpenTime(t, pro.timezone, now)),
    draft: replyDraft(d),
    reply_channel: platform ? REPLY_CHANNEL.platform : REPLY_CHANNEL.direct,
    dropped_fields: dropped,
    notices,
    possible_bad_lead_reasons: paid ? badReasons : [],
    ...(paid && badReasons.length ? { bad_lead_hint: leadNotices.badLeadHint(badReasons) } : {}),
    next_follow_up_due: shown.next_follow_up_due,
  };
}
