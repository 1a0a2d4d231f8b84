import { BOOKED_CONTRADICTS_NO_RESPONSE, OFFERED_CONTRADICTS_NOT_OFFERED, servedZipContradictsOutOfArea } from './words/bad-leads';

/** Lead rules: sources, the platform privacy rule, the follow-up cadence, bad-lead reasons. */
export const LEAD_SOURCES = [
  'marketplace_1',
  'marketplace_2',
  'marketplace_3',
  'marketplace_4',
  'marketplace_5',
  'social_1',
  'social_2',
  'website',
  'referral',
  'other',
] as const;
export type LeadSource = (typeof LEAD_SOURCES)[number];

export const LEAD_STATUSES = ['quoted', 'booked', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const BAD_LEAD_REASONS = ['out_of_area', 'duplicate', 'wrong_contact', 'no_response', 'not_requested', 'service_not_offered'] as const;
export type BadLeadReason = (typeof BAD_LEAD_REASONS)[number];

export const BAD_LEAD_REASON_TEXT: Record<BadLeadReason, string> = {
  out_of_area: 'The customer is outside our service area.',
  duplicate: 'This lead duplicates one we were already charged for.',
  wrong_contact: 'The contact details given do not reach the customer.',
  no_response: 'The customer never responded to our replies.',
  not_requested: 'The customer says they did not request this service.',
  service_not_offered: 'The customer asked for a service we do not offer.',
};

/** Marketplaces: the reply goes out inside the platform, and no name or contact is kept. */
export function isPlatformSource(source: LeadSource): boolean {
  return source.startsWith('marketplace_');
}

const DAY = 24 * 60 * 60 * 1000;

/** The follow-up cadence: 1 day after the quote, then 2 days after the first follow-up, then none. */
export const FOLLOW_UP_DELAYS_DAYS = [1, 2] as const;

export interface FollowUpState {
  status: LeadStatus;
  quoted_at: Date;
  follow_ups_sent: number;
  last_follow_up_at: Date | null;
}

/** When the next follow-up is due, or null when none is (not quoted, or both sent). */
export function nextFollowUpDue(lead: FollowUpState): { number: number; dueAt: Date } | null {
  if (lead.status !== 'quoted') return null;
  if (lead.follow_ups_sent === 0) return { number: 1, dueAt: new Date(lead.quoted_at.getTime() + FOLLOW_UP_DELAYS_DAYS[0] * DAY) };
  if (lead.follow_ups_sent === 1 && lead.last_follow_up_at) {
    return { number: 2, dueAt: new Date(lead.last_follow_up_at.getTime() + FOLLOW_UP_DELAYS_DAYS[1] * DAY) };
  }
  return null;
}

const URL_PATTERN = /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|co|us|biz|info|app|site|online|shop)\b(?:\/\S*)?/gi;
const EMAIL_PATTERN = /[^\s@]+@[^\s@]+\.[^\s@]+/g;
// Seven or more digits, allowing the usual separators: a phone number, not a price or a time.
const PHONE_PATTERN = /(?:\+?\d[\s().-]*){7,}\d?/g;

/** URLs, email addresses and phone numbers in a text: what a platform reply must never carry. */
export function findContactDetails(text: string): string[] {
  return [...(text.match(EMAIL_PATTERN) ?? []), ...(text.match(URL_PATTERN) ?? []), ...(text.match(PHONE_PATTERN) ?? []).map((m) => m.trim())];
}

/** What our own records hold about a lead, for checking a bad-lead reason against them. */
export interface LeadRecordFacts {
  /** The lead was booked: its status is booked, or a booking is linked to it. */
  booked: boolean;
  zip: string | null;
  /** The lead's ZIP is one the business serves. */
  zipServed: boolean;
  /** The business offers the lead's clean type and every add-on it asked for. */
  serviceOffered: boolean;
}

/**
 * The sentence that refuses a bad-lead reason our own records contradict, or null. A credit
 * request is pasted to a platform as fact: it must never claim what the records disprove.
 */
export function reasonContradicted(reason: BadLeadReason, facts: LeadRecordFacts): string | null {
  if (reason === 'no_response' && facts.booked) {
    return BOOKED_CONTRADICTS_NO_RESPONSE;
  }
  if (reason === 'out_of_area' && facts.zip !== null && facts.zipServed) {
    return servedZipContradictsOutOfArea(facts.zip);
  }
  if (reason === 'service_not_offered' && facts.serviceOffered) {
    return OFFERED_CONTRADICTS_NOT_OFFERED;
  }
  return null;
}
