import {
  MESSAGE,
  answer,
  bool,
  int,
  leadSchema,
  listOf,
  nullable,
  num,
  oneOf,
  openTimeSchema,
  quoteSchema,
  str,
  BAD_LEAD_REASONS,
  LEAD_SOURCES,
  LEAD_STATUSES,
  idSchema,
  jobFieldSchemas,
  multiLine,
  singleLine,
  zipSchema,
  fields,
  number,
  boolean,
  NO_INPUT,
} from '@frontdesk/domain';
import { flagBadLead as flagLead, followUpsDue as dueFollowUps, logLead as logNewLead, updateLead } from '@frontdesk/use-cases';
import { READS, WRITES, OVERWRITES } from '@frontdesk/http';
import type { AppContext } from '../context';
import { defineOperation } from './define';

export const logLead = (ctx: AppContext) =>
  defineOperation({
    name: 'log_lead',
    tag: 'leads',
    title: 'Log a new lead',
    description:
      'Logs a lead; returns a quote, open times and a reply draft. Platform leads (marketplace_1..5): name and contact are not stored; reply inside the platform, never with links to book elsewhere, phone or email. Confirm first.',
    method: 'POST',
    instruction:
      'Leads from marketplace_1 to marketplace_5 are answered inside that marketplace: never send them links (never a link to book elsewhere), phone numbers or email addresses. Their name and contact are not stored.',
    input: fields(
      {
        source: oneOf(LEAD_SOURCES),
        lead_ref: singleLine({ maxLength: 100, description: "The platform's lead id." }),
        customer_first_name: singleLine({ maxLength: 50, description: 'Direct leads only.' }),
        contact: singleLine({ maxLength: 200, description: 'Phone or email; direct leads only.' }),
        zip: zipSchema,
        lead_cost: number({ minimum: 0, maximum: 1000, description: 'USD the platform charged.' }),
        ...jobFieldSchemas,
      },
      ['source'],
    ),
    output: answer(
      {
        lead_id: str,
        status: leadSchema.properties.status,
        lead: leadSchema,
        quote: nullable(answer({ ...quoteSchema.properties, firm: bool, unpriced: listOf(str) })),
        open_times: listOf(openTimeSchema),
        draft: str,
        reply_channel: str,
        dropped_fields: listOf(str),
        notices: listOf(str),
        possible_bad_lead_reasons: listOf(oneOf(BAD_LEAD_REASONS)),
        bad_lead_hint: str,
        next_follow_up_due: nullable(str),
      },
      ['bad_lead_hint'],
    ),
    ...WRITES,
    async handler(input, { principal: pro, now }) {
      return logNewLead(ctx.db, pro, input, { bookingUrl: ctx.config.bookingUrl, now });
    },
  });

export const followUpsDue = (ctx: AppContext) =>
  defineOperation({
    name: 'follow_ups_due',
    tag: 'leads',
    title: 'Follow-ups due',
    description:
      'Quoted leads due a follow-up (1 day after the quote, then 2 days later), each with a draft. After the pro sends one, call update_lead with contacted=true.',
    method: 'GET',
    input: NO_INPUT,
    output: answer(
      {
        count: int,
        follow_ups: listOf(answer({ lead: leadSchema, follow_up_number: int, due_since: nullable(str), draft: str, reply_channel: str })),
        ...MESSAGE,
      },
      ['message'],
    ),
    ...READS,
    async handler(_input, { principal: pro, now }) {
      return dueFollowUps(ctx.db, pro, ctx.config.bookingUrl, now);
    },
  });

export const updateLeadOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'update_lead',
    tag: 'leads',
    title: 'Update a lead',
    description: "Sets a lead's status, contacted=true (follow-up sent) or notes (replacing them). Confirm first.",
    method: 'POST',
    instruction: 'After the pro sends a follow-up, call update_lead with contacted=true.',
    input: fields({ lead_id: idSchema(), status: oneOf(LEAD_STATUSES), contacted: boolean(), notes: multiLine({ maxLength: 500 }) }, ['lead_id']),
    output: answer({ ...leadSchema.properties, message: str }),
    ...OVERWRITES,
    async handler(input, { principal: pro, now }) {
      return updateLead(ctx.db, pro, input, now);
    },
  });

export const flagBadLead = (ctx: AppContext) =>
  defineOperation({
    name: 'flag_bad_lead',
    tag: 'leads',
    title: 'Flag a bad paid lead',
    description: 'Flags a paid lead as bad and prepares a lead-credit request; the pro submits it to the platform, the service never does. Confirm first.',
    method: 'POST',
    instruction: 'flag_bad_lead prepares a lead-credit request; the pro submits it to the platform, the service never does.',
    input: fields(
      {
        lead_id: idSchema(),
        reason: oneOf(BAD_LEAD_REASONS),
        evidence: listOf(singleLine({ minLength: 1, maxLength: 300 }), { maxItems: 10, description: 'What happened, as short dated lines.' }),
      },
      ['lead_id', 'reason'],
    ),
    output: answer({
      lead_id: str,
      platform: oneOf(LEAD_SOURCES),
      lead_ref: nullable(str),
      lead_date: str,
      amount: num,
      reason: oneOf(BAD_LEAD_REASONS),
      reason_text: str,
      evidence: listOf(str),
      request_text: str,
      submitted: bool,
      message: str,
    }),
    ...OVERWRITES,
    idempotent: true,
    async handler(input, { principal: pro, now }) {
      return flagLead(ctx.db, pro, input, now);
    },
  });
