import {
  BAD_LEAD_REASONS,
  addOnsNotOffered,
  BAD_LEAD_REASON_TEXT,
  CLEAN_TYPE_LABELS,
  InvalidInputError,
  LEAD_SOURCES,
  LEAD_STATUSES,
  followUpDraft,
  formatLabel,
  formatUsd,
  isPlatformSource,
  jobFieldSchemas,
  localDate,
  nextFollowUpDue,
  normalizeJob,
  offeredCleanTypes,
  presentOpenTime,
  presentQuote,
  reasonContradicted,
  priceJob,
  replyDraft,
  spreadTimes,
  toUsd,
  zipSchema,
  type BadLeadReason,
  type CleanType,
  type DraftInput,
  type Frequency,
  type LeadSource,
  type LeadStatus,
  type OpenTime,
  type Quote,
} from '@frontdesk/domain';
import {
  findDuplicateLead,
  flagLead,
  getLead,
  insertLead,
  openTimesForDuration,
  leadHasBooking,
  presentLead,
  quotedLeadsAwaitingReply,
  updateLead,
  type Lead,
  type Pro,
} from '@frontdesk/db';
import { NO_INPUT, defineOperation } from '@frontdesk/http';
import type { AppContext } from '../context';

const idSchema = (what: string) => ({ type: 'string', minLength: 1, maxLength: 64, description: what });

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

/** What the drafts need to know about a lead, whatever operation writes them (times come after). */
function draftInput(pro: Pro, bookingUrl: string, lead: Pick<Lead, 'source' | 'customer_first_name' | 'zip' | 'bedrooms' | 'bathrooms' | 'clean_type' | 'add_ons'>, quote: Quote | null): DraftInput {
  const list = pro.price_list;
  const outOfArea = lead.zip !== null && !pro.service_zips.includes(lead.zip);
  return {
    source: lead.source,
    businessName: pro.name,
    firstName: isPlatformSource(lead.source) ? null : lead.customer_first_name,
    bookingPage: isPlatformSource(lead.source) ? null : `${bookingUrl}/book/${pro.id}`,
    quote,
    missing: [lead.bedrooms === null ? 'bedrooms' : null, lead.bathrooms === null ? 'bathrooms' : null].filter((m): m is string => m !== null),
    openTimes: [],
    outOfAreaZip: outOfArea ? lead.zip : null,
    cleanTypeNotOffered: list.clean_types[lead.clean_type] ? null : { asked: lead.clean_type, offered: offeredCleanTypes(list) },
    addOnsNotOffered: addOnsNotOffered(list, lead.add_ons),
  };
}

/** Open times worth offering in a reply: none for a lead the business cannot take. */
async function timesFor(ctx: AppContext, pro: Pro, d: DraftInput, now: Date): Promise<OpenTime[]> {
  if (!d.quote || d.outOfAreaZip || d.cleanTypeNotOffered) return [];
  return (await openTimesForDuration(ctx.db, pro, d.quote.duration_minutes, { days: 7, now })).times;
}

/** A few starts on different days, as a customer reads them. */
function draftTimes(pro: Pro, times: OpenTime[], now: Date): string[] {
  return spreadTimes(times.map((t) => ({ label: formatLabel(t.start, pro.timezone, now), day: localDate(t.start, pro.timezone) })));
}

const REPLY_CHANNEL = {
  platform: 'Reply inside the marketplace. Do not send links, phone numbers or email addresses, and never a link to book elsewhere.',
  direct: 'Reply to the customer directly; the draft may carry the booking page link.',
};

export const logLead = (ctx: AppContext) =>
  defineOperation<Pro, LogLeadInput>({
    name: 'log_lead',
    title: 'Log a new lead',
    description:
      "Logs a lead from a marketplace, social channel, the website or a referral, and returns a firm quote from the business's own list (when bedrooms and bathrooms are known), a few open times, and a reply draft to send as is. Platform leads (marketplace_1..5): the customer's name and contact are never stored, the reply goes out inside the platform, and the draft has no link, phone or email. Confirm with the pro before logging.",
    method: 'POST',
    input: {
      type: 'object',
      properties: {
        source: { type: 'string', enum: [...LEAD_SOURCES], description: 'Where the lead came from; marketplace_1..5 are lead marketplaces (platform sources).' },
        lead_ref: { type: 'string', maxLength: 100, description: "The platform's own lead or request id." },
        customer_first_name: { type: 'string', maxLength: 50, description: 'Direct leads only; dropped for platform sources.' },
        contact: { type: 'string', maxLength: 200, description: 'Phone or email; direct leads only, dropped for platform sources.' },
        zip: zipSchema,
        lead_cost: { type: 'number', minimum: 0, maximum: 1000, description: 'USD the platform charged for this lead (0 to 1000).' },
        ...jobFieldSchemas,
      },
      required: ['source'],
      additionalProperties: false,
    },
    readOnly: false,
    scope: 'write',
    async handler(input, { principal: pro, now }) {
      const platform = isPlatformSource(input.source);
      const given = (v?: string) => (v?.trim() ? v.trim() : null);
      const dropped = platform ? (['customer_first_name', 'contact'] as const).filter((f) => given(input[f]) !== null) : [];
      const known = input.bedrooms !== undefined && input.bathrooms !== undefined;
      const job = normalizeJob({ ...input, bedrooms: input.bedrooms ?? 0, bathrooms: input.bathrooms ?? 1 });
      const quote = known ? priceJob(job, pro.price_list) : null;
      const leadRef = given(input.lead_ref);
      const duplicate = leadRef ? await findDuplicateLead(ctx.db, pro.id, input.source, leadRef) : undefined;

      const lead = await insertLead(ctx.db, {
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
      const d = draftInput(pro, ctx.config.bookingUrl, lead, quote);
      const times = await timesFor(ctx, pro, d, now);
      d.openTimes = draftTimes(pro, times, now);

      const notices: string[] = [];
      const badReasons: BadLeadReason[] = [];
      if (dropped.length) notices.push(`${dropped.join(' and ')} ${dropped.length > 1 ? 'were' : 'was'} not stored: platform leads are answered inside the platform.`);
      if (!known) notices.push('No firm quote yet: bedrooms and bathrooms are needed; the draft asks for them.');
      if (d.outOfAreaZip) {
        notices.push(`ZIP ${d.outOfAreaZip} is outside the service area (${pro.service_zips.join(', ')}); the draft declines politely.`);
        badReasons.push('out_of_area');
      }
      if (d.cleanTypeNotOffered) {
        notices.push(`The business does not offer a ${CLEAN_TYPE_LABELS[d.cleanTypeNotOffered.asked].toLowerCase()}; it was not priced.`);
        badReasons.push('service_not_offered');
      }
      if (d.addOnsNotOffered.length) notices.push(`Not priced (not offered): ${d.addOnsNotOffered.join(', ')}.`);
      if (duplicate) {
        notices.push(`The same ${input.source} lead_ref ${leadRef} was logged before (${duplicate.id}, ${formatLabel(duplicate.quoted_at, pro.timezone)}).`);
        badReasons.push('duplicate');
      }
      const paid = lead.lead_cost_cents > 0;
      return {
        lead_id: lead.id,
        status: lead.status,
        lead: presentLead(lead, pro.timezone),
        quote: quote && !d.cleanTypeNotOffered ? { ...presentQuote(quote), firm: quote.unpriced.length === 0, unpriced: quote.unpriced } : null,
        open_times: times.slice(0, 10).map((t) => presentOpenTime(t, pro.timezone, now)),
        draft: replyDraft(d),
        reply_channel: platform ? REPLY_CHANNEL.platform : REPLY_CHANNEL.direct,
        dropped_fields: dropped,
        notices,
        possible_bad_lead_reasons: paid ? badReasons : [],
        ...(paid && badReasons.length
          ? { bad_lead_hint: `This paid lead may qualify for a credit (${badReasons.join(', ')}): flag_bad_lead prepares the request.` }
          : {}),
        next_follow_up_due: presentLead(lead, pro.timezone).next_follow_up_due,
      };
    },
  });

export const followUpsDue = (ctx: AppContext) =>
  defineOperation<Pro, Record<string, never>>({
    name: 'follow_ups_due',
    title: 'List follow-ups due',
    description:
      'Lists quoted leads that have not replied and are due a follow-up (1 day after the quote, then 2 days after the first follow-up, then no more), each with a draft. After the pro sends one, call update_lead with contacted=true.',
    method: 'GET',
    input: NO_INPUT,
    readOnly: true,
    idempotent: true,
    scope: 'read',
    async handler(_input, { principal: pro, now }) {
      const due = (await quotedLeadsAwaitingReply(ctx.db, pro.id))
        .map((lead) => ({ lead, next: nextFollowUpDue(lead) }))
        .filter((x): x is { lead: Lead; next: NonNullable<typeof x.next> } => x.next !== null && x.next.dueAt <= now);
      const follow_ups = [];
      for (const { lead, next } of due) {
        const quote = (lead.quote as Quote | null) ?? null;
        const d = draftInput(pro, ctx.config.bookingUrl, lead, quote);
        if (next.number === 1) d.openTimes = draftTimes(pro, await timesFor(ctx, pro, d, now), now);
        follow_ups.push({
          lead: presentLead(lead, pro.timezone),
          follow_up_number: next.number,
          due_since: presentLead(lead, pro.timezone).next_follow_up_due,
          draft: followUpDraft(d, next.number),
          reply_channel: isPlatformSource(lead.source) ? REPLY_CHANNEL.platform : REPLY_CHANNEL.direct,
        });
      }
      return {
        count: follow_ups.length,
        follow_ups,
        ...(follow_ups.length === 0 ? { message: 'No follow-ups are due right now.' } : {}),
      };
    },
  });

export interface UpdateLeadInput {
  lead_id: string;
  status?: LeadStatus;
  contacted?: boolean;
  notes?: string;
}

export const updateLeadOperation = (ctx: AppContext) =>
  defineOperation<Pro, UpdateLeadInput>({
    name: 'update_lead',
    title: 'Update a lead',
    description:
      "Updates a lead: status (quoted, booked or lost), contacted=true after the pro sent a follow-up (records it and moves the next due time), notes (replaces them); give at least one of the three. Confirm with the pro first.",
    method: 'POST',
    input: {
      type: 'object',
      properties: {
        lead_id: idSchema('The lead from log_lead or follow_ups_due.'),
        status: { type: 'string', enum: [...LEAD_STATUSES], description: 'quoted, booked or lost.' },
        contacted: { type: 'boolean', description: 'true once the pro has sent the follow-up.' },
        notes: { type: 'string', maxLength: 500, description: 'Notes on the lead (replaces earlier notes).' },
      },
      required: ['lead_id'],
      additionalProperties: false,
    },
    readOnly: false,
    scope: 'write',
    async handler(input, { principal: pro, now }) {
      // A rule across fields lives here, not in the schema: strict MCP clients refuse a top-level anyOf.
      if (input.status === undefined && input.contacted === undefined && input.notes === undefined) {
        throw new InvalidInputError('Give at least one of status or contacted or notes.');
      }
      const lead = await updateLead(ctx.db, pro.id, input.lead_id, { status: input.status, contacted: input.contacted, notes: input.notes }, now);
      const shown = presentLead(lead, pro.timezone);
      const parts: string[] = [];
      if (input.contacted === true) parts.push(`Follow-up ${lead.follow_ups_sent} recorded as sent.`);
      if (input.status) parts.push(`Status is now ${lead.status}.`);
      if (input.notes !== undefined) parts.push('Notes saved.');
      parts.push(shown.next_follow_up_due ? `Next follow-up due ${shown.next_follow_up_due}.` : 'No further follow-up is due.');
      return { ...shown, message: parts.join(' ') };
    },
  });

export interface FlagInput {
  lead_id: string;
  reason: BadLeadReason;
  evidence?: string[];
}

function autoEvidence(lead: Lead, pro: Pro): string[] {
  const day = (d: Date) => localDate(d, pro.timezone);
  const lines = [`${day(lead.quoted_at)}: lead received through ${lead.source}${lead.lead_ref ? ` (${lead.lead_ref})` : ''}, charged ${formatUsd(lead.lead_cost_cents)}.`];
  if (lead.zip && !pro.service_zips.includes(lead.zip)) {
    lines.push(`${day(lead.quoted_at)}: the request is for ZIP ${lead.zip}; we serve ${pro.service_zips.join(', ')}.`);
  }
  if (!pro.price_list.clean_types[lead.clean_type]) {
    lines.push(`${day(lead.quoted_at)}: the request is for a ${CLEAN_TYPE_LABELS[lead.clean_type].toLowerCase()}, which we do not offer.`);
  }
  if (lead.follow_ups_sent > 0 && lead.last_follow_up_at) {
    lines.push(`${day(lead.last_follow_up_at)}: ${lead.follow_ups_sent} follow-up${lead.follow_ups_sent > 1 ? 's' : ''} sent in total, no reply.`);
  }
  return lines;
}

export const flagBadLead = (ctx: AppContext) =>
  defineOperation<Pro, FlagInput>({
    name: 'flag_bad_lead',
    title: 'Flag a bad paid lead',
    description:
      'Flags a paid lead (lead_cost above 0) as bad and prepares a lead-credit request with evidence for the pro to paste into the platform. The service never submits it. Flagging again replaces the earlier request. Give evidence as short dated lines.',
    method: 'POST',
    input: {
      type: 'object',
      properties: {
        lead_id: idSchema('The paid lead.'),
        reason: { type: 'string', enum: [...BAD_LEAD_REASONS], description: 'Why the lead is bad.' },
        evidence: {
          type: 'array',
          maxItems: 10,
          items: { type: 'string', minLength: 1, maxLength: 300 },
          description: 'What happened, with dates: at most 10 lines of at most 300 characters.',
        },
      },
      required: ['lead_id', 'reason'],
      additionalProperties: false,
    },
    readOnly: false,
    idempotent: true,
    scope: 'write',
    async handler(input, { principal: pro, now }) {
      const lead = await getLead(ctx.db, pro.id, input.lead_id);
      if (lead.lead_cost_cents <= 0) {
        throw new InvalidInputError(`Lead ${lead.id} cost nothing (lead_cost 0), so there is no credit to ask for; only paid leads can be flagged.`);
      }
      const list = pro.price_list;
      const contradiction = reasonContradicted(input.reason, {
        booked: lead.status === 'booked' || (await leadHasBooking(ctx.db, lead.id)),
        zip: lead.zip,
        zipServed: lead.zip !== null && pro.service_zips.includes(lead.zip),
        serviceOffered: Boolean(list.clean_types[lead.clean_type]) && addOnsNotOffered(list, lead.add_ons).length === 0,
      });
      if (contradiction) throw new InvalidInputError(`Not flagged: ${contradiction}`);
      const given = (input.evidence ?? []).map((e) => e.trim()).filter(Boolean);
      const flagged = await flagLead(ctx.db, lead, input.reason, given, now);
      const evidence = [...autoEvidence(flagged, pro), ...given];
      const leadDate = localDate(flagged.quoted_at, pro.timezone);
      const amount = toUsd(flagged.lead_cost_cents);
      const text = [
        'Lead credit request',
        `Platform: ${flagged.source}`,
        `Lead: ${flagged.lead_ref ?? '(no lead id recorded)'}, received ${leadDate}`,
        `Amount charged: ${formatUsd(flagged.lead_cost_cents)}`,
        `Reason: ${BAD_LEAD_REASON_TEXT[input.reason]}`,
        'Evidence:',
        ...evidence.map((e) => `- ${e}`),
      ].join('\n');
      return {
        lead_id: flagged.id,
        platform: flagged.source,
        lead_ref: flagged.lead_ref,
        lead_date: leadDate,
        amount,
        reason: input.reason,
        reason_text: BAD_LEAD_REASON_TEXT[input.reason],
        evidence,
        request_text: text,
        submitted: false,
        message: `Prepared, not submitted: paste the request into ${flagged.source}'s lead-credit form. ${formatUsd(flagged.lead_cost_cents)} may be credited.`,
      };
    },
  });
