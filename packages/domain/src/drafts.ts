import { CLEAN_TYPE_LABELS, type CleanType } from './job';
import { findContactDetails, isPlatformSource, type LeadSource } from './leads';
import { formatUsd } from './money';
import type { Quote } from './pricing';

/**
 * Reply drafts a person would send as is. For platform leads the reply is sent inside the
 * marketplace, so a draft never carries a link, phone number or email address (contract
 * rule 6), nor the customer's name (it is not kept); every part that could is left out.
 */
export interface DraftInput {
  source: LeadSource;
  businessName: string;
  /** Direct leads only. */
  firstName: string | null;
  /** Direct leads only: where the customer can book online. */
  bookingPage: string | null;
  /** Null when bedrooms or bathrooms are missing. */
  quote: Quote | null;
  /** Fields the customer still has to give for a firm price. */
  missing: string[];
  /** Labels of a few open start times. */
  openTimes: string[];
  /** Set when the ZIP is outside the service area. */
  outOfAreaZip: string | null;
  /** Clean type asked for but not offered, with the ones that are. */
  cleanTypeNotOffered: { asked: CleanType; offered: CleanType[] } | null;
  /** Add-ons asked for but not offered. */
  addOnsNotOffered: string[];
}

function greeting(d: DraftInput): string {
  const name = !isPlatformSource(d.source) && d.firstName ? d.firstName.trim() : '';
  return name ? `Hi ${name},` : 'Hi there,';
}

function signature(d: DraftInput): string {
  const name = d.businessName.trim();
  // A business name that holds a web address or a phone number cannot go into a platform reply.
  if (isPlatformSource(d.source) && findContactDetails(name).length > 0) return '';
  return `\n\n- ${name}`;
}

function homeText(q: Quote): string {
  const { job } = q;
  const beds = job.bedrooms === 0 ? 'studio' : `${job.bedrooms}-bedroom`;
  return `${CLEAN_TYPE_LABELS[job.clean_type].toLowerCase()} of your ${beds}, ${job.bathrooms}-bathroom home`;
}

const RATE_WORDS = { weekly: 'weekly', biweekly: 'every-other-week', monthly: 'monthly', once: 'one-time' } as const;

function priceSentence(q: Quote): string {
  const hours = q.estimated_hours;
  const duration = hours === 1 ? 'about an hour' : `about ${hours} hours`;
  let text = `For a ${homeText(q)}, the price is ${formatUsd(q.total_cents)} (${duration} with a crew of ${q.crew_size}).`;
  if (q.recurring && q.recurring.discount_pct > 0) {
    text += q.recurring.first_visit_discounted
      ? ` That is the ${RATE_WORDS[q.recurring.frequency]} rate, first visit included.`
      : ` The first visit is at the full price; ${RATE_WORDS[q.recurring.frequency]} visits after that are ${formatUsd(q.recurring.visit_total_cents)}.`;
  }
  return text;
}

function timesSentence(times: string[]): string {
  if (times.length === 0) return '';
  const list = times.length === 1 ? times[0] : `${times.slice(0, -1).join('; ')}; or ${times.at(-1)}`;
  return ` We have openings on ${list}.`;
}

function bookingSentence(d: DraftInput, ask: string): string {
  if (!isPlatformSource(d.source) && d.bookingPage) {
    return ` ${ask} You can also pick a time and book online: ${d.bookingPage}`;
  }
  return ` ${ask}${isPlatformSource(d.source) ? ' Just reply here.' : ''}`;
}

const missingText = (missing: string[]) =>
  missing.map((m) => (m === 'bedrooms' ? 'how many bedrooms' : m === 'bathrooms' ? 'how many bathrooms' : m)).join(' and ');

/** The first reply to a new lead. */
export function replyDraft(d: DraftInput): string {
  const hello = `${greeting(d)} thanks for reaching out about a cleaning!`;
  if (d.outOfAreaZip) {
    return `${hello} Unfortunately we don't serve ZIP ${d.outOfAreaZip}, so we can't take this one. We hope you find a great cleaner nearby.${signature(d)}`;
  }
  if (d.cleanTypeNotOffered) {
    const offered = d.cleanTypeNotOffered.offered.map((t) => CLEAN_TYPE_LABELS[t].toLowerCase()).join(', ');
    return `${hello} We don't offer a ${CLEAN_TYPE_LABELS[d.cleanTypeNotOffered.asked].toLowerCase()}, but we do offer: ${offered}. Would one of those work for you?${signature(d)}`;
  }
  if (!d.quote || d.missing.length > 0) {
    return `${hello} To give you a firm price, could you tell me ${missingText(d.missing)} the home has?${signature(d)}`;
  }
  const extras = d.addOnsNotOffered.length ? ` We don't offer ${d.addOnsNotOffered.join(', ')}, so that is not included.` : '';
  const ask = d.openTimes.length ? 'Which time suits you?' : 'When would suit you?';
  return `${hello} ${priceSentence(d.quote)}${extras}${timesSentence(d.openTimes)}${bookingSentence(d, ask)}${signature(d)}`;
}

/** The follow-up to a quoted lead that has not answered: number 1 or 2. */
export function followUpDraft(d: DraftInput, number: number): string {
  const hello = greeting(d);
  if (number >= 2) {
    return `${hello} one last check-in about your cleaning request. If you'd still like a cleaning, let us know and we'll find a time; if your plans changed, no problem at all.${signature(d)}`;
  }
  if (!d.quote || d.missing.length > 0) {
    return `${hello} just following up on your cleaning request. If you tell me ${missingText(d.missing)} the home has, I can give you a firm price right away.${signature(d)}`;
  }
  return `${hello} just following up on your cleaning request. Your price of ${formatUsd(d.quote.total_cents)} for a ${homeText(d.quote)} still stands.${timesSentence(d.openTimes)}${bookingSentence(d, 'Would one of those work?')}${signature(d)}`;
}

/** Picks up to `count` starts on different days, so a reply offers real choice. */
export function spreadTimes<T extends { label: string; day: string }>(times: T[], count = 3): string[] {
  const picked: string[] = [];
  const days = new Set<string>();
  for (const t of times) {
    if (days.has(t.day)) continue;
    days.add(t.day);
    // "Tue, Nov 24, 8:00 AM EST" reads as "Tue, Nov 24 at 8:00 AM" to a customer.
    picked.push(t.label.replace(/ [A-Z]{2,5}$|\s?GMT[+-][\d:]+$/, '').replace(/, (\d{1,2}:\d{2} [AP]M)$/, ' at $1'));
    if (picked.length === count) break;
  }
  return picked;
}
