import { type BadLeadReason, type Job, type LeadSource, type LeadStatus, type Quote } from '@frontdesk/domain';
import type { Db } from '../connect';
import { newId } from '../ids';
import type { Lead } from '../tables/leads';

export interface NewLead {
  proId: string;
  source: LeadSource;
  leadRef: string | null;
  firstName: string | null;
  contact: string | null;
  zip: string | null;
  leadCostCents: number;
  /** Bedrooms and bathrooms may be missing; the rest has its defaults. */
  job: Omit<Job, 'bedrooms' | 'bathrooms'> & { bedrooms: number | null; bathrooms: number | null };
  quote: Quote | null;
  now: Date;
}

export async function insertLead(db: Db, l: NewLead): Promise<Lead> {
  return db
    .insertInto('leads')
    .values({
      id: newId('lead'),
      pro_id: l.proId,
      source: l.source,
      lead_ref: l.leadRef,
      customer_first_name: l.firstName,
      contact: l.contact,
      zip: l.zip,
      lead_cost_cents: l.leadCostCents,
      ...l.job,
      quote_total_cents: l.quote && l.quote.unpriced.length === 0 ? l.quote.total_cents : null,
      quote: l.quote ? JSON.stringify(l.quote) : null,
      last_follow_up_at: null,
      notes: null,
      flag_reason: null,
      flag_evidence: null,
      flagged_at: null,
      quoted_at: l.now,
      created_at: l.now,
      updated_at: l.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An earlier lead from the same platform with the same lead_ref: a likely double charge. */
export async function findDuplicateLead(db: Db, proId: string, source: LeadSource, leadRef: string): Promise<Lead | undefined> {
  return db
    .selectFrom('leads')
    .selectAll()
    .where('pro_id', '=', proId)
    .where('source', '=', source)
    .where('lead_ref', '=', leadRef)
    .orderBy('created_at')
    .executeTakeFirst();
}

export async function getLead(db: Db, proId: string, leadId: string): Promise<Lead | undefined> {
  return db.selectFrom('leads').selectAll().where('id', '=', leadId).where('pro_id', '=', proId).executeTakeFirst();
}

/** Locks a lead's row for a change made in the caller's transaction. */
export async function lockLead(trx: Db, proId: string, leadId: string): Promise<Lead | undefined> {
  return trx.selectFrom('leads').selectAll().where('id', '=', leadId).where('pro_id', '=', proId).forUpdate().executeTakeFirst();
}

export interface LeadChange {
  status?: LeadStatus;
  contacted?: boolean;
  notes?: string;
}

/** Writes a change to a locked lead: contacted=true counts one more follow-up sent, now. */
export async function applyLeadChange(trx: Db, lead: Lead, change: LeadChange, now: Date): Promise<Lead> {
  return trx
    .updateTable('leads')
    .set({
      ...(change.status !== undefined ? { status: change.status } : {}),
      ...(change.notes !== undefined ? { notes: change.notes } : {}),
      ...(change.contacted === true
        ? { contacted: true, follow_ups_sent: lead.follow_ups_sent + 1, last_follow_up_at: now }
        : change.contacted === false
          ? { contacted: false }
          : {}),
      updated_at: now,
    })
    .where('id', '=', lead.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A lead a booking was made for is booked. */
export async function markLeadBooked(trx: Db, leadId: string, now: Date): Promise<void> {
  await trx.updateTable('leads').set({ status: 'booked', updated_at: now }).where('id', '=', leadId).execute();
}

export async function flagLead(db: Db, lead: Lead, flag: { reason: BadLeadReason; evidence: string[]; now: Date }): Promise<Lead> {
  const { reason, evidence, now } = flag;
  return db
    .updateTable('leads')
    .set({ flag_reason: reason, flag_evidence: JSON.stringify(evidence), flagged_at: now, updated_at: now })
    .where('id', '=', lead.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Quoted leads sent fewer than `maxFollowUps` follow-ups (the cadence itself is a domain rule). */
export async function quotedLeadsAwaitingReply(db: Db, proId: string, maxFollowUps: number): Promise<Lead[]> {
  return db
    .selectFrom('leads')
    .selectAll()
    .where('pro_id', '=', proId)
    .where('status', '=', 'quoted')
    .where('follow_ups_sent', '<', maxFollowUps)
    .orderBy('quoted_at')
    .execute();
}

/** Whether a live or finished booking (not a cancelled one) is linked to the lead. */
export async function leadHasBooking(db: Db, leadId: string): Promise<boolean> {
  const row = await db.selectFrom('bookings').select('id').where('lead_id', '=', leadId).where('status', '!=', 'cancelled').limit(1).executeTakeFirst();
  return row !== undefined;
}
