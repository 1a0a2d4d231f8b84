import { FOLLOW_UP_DELAYS_DAYS, NO_FOLLOW_UPS_DUE, REPLY_CHANNEL, followUpDraft, isPlatformSource, nextFollowUpDue, type Quote } from '@frontdesk/domain';
import { quotedLeadsAwaitingReply, type Db, type Lead, type Pro } from '@frontdesk/db';
import { draftInput, draftTimes, replyTimes } from './lead-drafts';
import { presentLead } from './present';

/** Quoted leads due a follow-up now, each with its draft (the first one offers open times). */
export async function followUpsDue(db: Db, pro: Pro, bookingUrl: string, now: Date) {
  const due = (await quotedLeadsAwaitingReply(db, pro.id, FOLLOW_UP_DELAYS_DAYS.length))
    .map((lead) => ({ lead, next: nextFollowUpDue(lead) }))
    .filter((x): x is { lead: Lead; next: NonNullable<typeof x.next> } => x.next !== null && x.next.dueAt <= now);
  const follow_ups = [];
  for (const { lead, next } of due) {
    const d = draftInput(pro, bookingUrl, lead, (lead.quote as Quote | null) ?? null);
    if (next.number === 1) d.openTimes = draftTimes(pro, await replyTimes(db, pro, d, now), now);
    const shown = presentLead(lead, pro.timezone);
    follow_ups.push({
      lead: shown,
      follow_up_number: next.number,
      due_since: shown.next_follow_up_due,
      draft: followUpDraft(d, next.number),
      reply_channel: isPlatformSource(lead.source) ? REPLY_CHANNEL.platform : REPLY_CHANNEL.direct,
    });
  }
  return { count: follow_ups.length, follow_ups, ...(follow_ups.length === 0 ? { message: NO_FOLLOW_UPS_DUE } : {}) };
}
