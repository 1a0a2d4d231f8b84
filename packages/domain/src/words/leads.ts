import { InvalidInputError } from '../errors';
import { CLEAN_TYPE_LABELS, type CleanType } from '../job';
import { BAD_LEAD_REASON_TEXT, FOLLOW_UP_DELAYS_DAYS, type BadLeadReason, type LeadSource } from '../leads';
import { formatUsd } from '../money';

/** Everything a pro reads about leads: notices, follow-ups, credit requests. */

export const REPLY_CHANNEL = {
  platform: 'Reply inside the marketplace. Do not send links, phone numbers or email addresses, and never a link to book elsewhere.',
  direct: 'Reply to the customer directly; the draft may carry the booking page link.',
} as const;

export const leadNotices = {
  dropped: (fields: readonly string[]) =>
    `${fields.join(' and ')} ${fields.length > 1 ? 'were' : 'was'} not stored: platform leads are answered inside the platform.`,
  noSize: 'No firm quote yet: bedrooms and bathrooms are needed; the draft asks for them.',
  outOfArea: (zip: string, served: string[]) => `ZIP ${zip} is outside the service area (${served.join(', ')}); the draft declines politely.`,
  cleanTypeNotOffered: (t: CleanType) => `The business does not offer a ${CLEAN_TYPE_LABELS[t].toLowerCase()}; it was not priced.`,
  addOnsNotOffered: (names: string[]) => `Not priced (not offered): ${names.join(', ')}.`,
  duplicate: (source: string, leadRef: string, earlierId: string, when: string) =>
    `The same ${source} lead_ref ${leadRef} was logged before (${earlierId}, ${when}).`,
  badLeadHint: (reasons: BadLeadReason[]) => `This paid lead may qualify for a credit (${reasons.join(', ')}): flag_bad_lead prepares the request.`,
};

export const NO_FOLLOW_UPS_DUE = 'No follow-ups are due right now.';

export const nothingToUpdate = () => new InvalidInputError('Give at least one of status or contacted or notes.');

/** What update_lead says it did, and when the next follow-up is due. */
export function leadUpdatedMessage(
  change: { contacted?: boolean; status?: string; notes?: string },
  followUpsSent: number,
  status: string,
  nextDue: string | null,
): string {
  const parts: string[] = [];
  if (change.contacted === true) parts.push(`Follow-up ${followUpsSent} recorded as sent.`);
  if (change.status) parts.push(`Status is now ${status}.`);
  if (change.notes !== undefined) parts.push('Notes saved.');
  parts.push(nextDue ? `Next follow-up due ${nextDue}.` : 'No further follow-up is due.');
  return parts.join(' ');
}

/** The feed's sentence for a follow-up that has come due. */
export function followUpDueMessage(f: {
  number: number;
  source: string;
  leadRef: string | null;
  bedrooms: number | null;
  bathrooms: number | null;
  loggedLabel: string;
}): string {
  const what = f.bedrooms !== null && f.bathrooms !== null ? `${f.bedrooms} bd / ${f.bathrooms} ba` : 'size not given yet';
  return `Follow-up ${f.number} of ${FOLLOW_UP_DELAYS_DAYS.length} is due for the ${f.source} lead${f.leadRef ? ` ${f.leadRef}` : ''} (${what}, logged ${f.loggedLabel}). follow_ups_due has the draft.`;
}

/** The feed's sentence listing today's jobs ("9:00 AM Ana (12 Main St)"). */
export function jobsTodayMessage(jobs: { time: string; customerName: string; address: string }[]): string {
  const list = jobs.map((j) => `${j.time} ${j.customerName} (${j.address})`);
  return `${jobs.length} job${jobs.length === 1 ? '' : 's'} today: ${list.join('; ')}.`;
}

export const freeLeadNotFlagged = (leadId: string) =>
  new InvalidInputError(`Lead ${leadId} cost nothing (lead_cost 0), so there is no credit to ask for; only paid leads can be flagged.`);
export const notFlagged = (why: string) => new InvalidInputError(`Not flagged: ${why}`);

/** The evidence lines the record itself supports, each dated. */
export function recordEvidence(l: {
  day: (d: Date) => string;
  quotedAt: Date;
  source: string;
  leadRef: string | null;
  costCents: number;
  zip: string | null;
  servedZips: string[];
  cleanType: CleanType;
  cleanTypeOffered: boolean;
  followUpsSent: number;
  lastFollowUpAt: Date | null;
}): string[] {
  const on = l.day(l.quotedAt);
  const lines = [`${on}: lead received through ${l.source}${l.leadRef ? ` (${l.leadRef})` : ''}, charged ${formatUsd(l.costCents)}.`];
  if (l.zip && !l.servedZips.includes(l.zip)) lines.push(`${on}: the request is for ZIP ${l.zip}; we serve ${l.servedZips.join(', ')}.`);
  if (!l.cleanTypeOffered) lines.push(`${on}: the request is for a ${CLEAN_TYPE_LABELS[l.cleanType].toLowerCase()}, which we do not offer.`);
  if (l.followUpsSent > 0 && l.lastFollowUpAt) {
    lines.push(`${l.day(l.lastFollowUpAt)}: ${l.followUpsSent} follow-up${l.followUpsSent > 1 ? 's' : ''} sent in total, no reply.`);
  }
  return lines;
}

/** The lead-credit request the pro pastes into the platform's form. */
export function creditRequestText(r: {
  source: LeadSource;
  leadRef: string | null;
  leadDate: string;
  costCents: number;
  reason: BadLeadReason;
  evidence: string[];
}): string {
  return [
    'Lead credit request',
    `Platform: ${r.source}`,
    `Lead: ${r.leadRef ?? '(no lead id recorded)'}, received ${r.leadDate}`,
    `Amount charged: ${formatUsd(r.costCents)}`,
    `Reason: ${BAD_LEAD_REASON_TEXT[r.reason]}`,
    'Evidence:',
    ...r.evidence.map((e) => `- ${e}`),
  ].join('\n');
}

export const creditPreparedMessage = (source: string, costCents: number) =>
  `Prepared, not submitted: paste the request into ${source}'s lead-credit form. ${formatUsd(costCents)} may be credited.`;
