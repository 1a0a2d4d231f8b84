import {
  bookingPageOf,
  DEFAULT_DAYS,
  addOnsNotOffered,
  formatLabel,
  isPlatformSource,
  localDate,
  offeredCleanTypes,
  spreadTimes,
  type DraftInput,
  type OpenTime,
  type Quote,
} from '@frontdesk/domain';
import type { Db, Lead, Pro } from '@frontdesk/db';
import { openTimesForDuration } from './open-times';

/** What the reply and follow-up drafts need to know about a lead (times are added after). */
export function draftInput(
  pro: Pro,
  bookingUrl: string,
  lead: Pick<Lead, 'source' | 'customer_first_name' | 'zip' | 'bedrooms' | 'bathrooms' | 'clean_type' | 'add_ons'>,
  quote: Quote | null,
): DraftInput {
  const list = pro.price_list;
  const platform = isPlatformSource(lead.source);
  return {
    source: lead.source,
    businessName: pro.name,
    firstName: platform ? null : lead.customer_first_name,
    bookingPage: platform ? null : bookingPageOf(bookingUrl, pro.id),
    quote,
    missing: [lead.bedrooms === null ? 'bedrooms' : null, lead.bathrooms === null ? 'bathrooms' : null].filter((m): m is string => m !== null),
    openTimes: [],
    outOfAreaZip: lead.zip !== null && !pro.service_zips.includes(lead.zip) ? lead.zip : null,
    cleanTypeNotOffered: list.clean_types[lead.clean_type] ? null : { asked: lead.clean_type, offered: offeredCleanTypes(list) },
    addOnsNotOffered: addOnsNotOffered(list, lead.add_ons),
  };
}

/** Open times worth offering in a reply: none for a lead the business cannot take. */
export async function replyTimes(db: Db, pro: Pro, d: DraftInput, now: Date): Promise<OpenTime[]> {
  if (!d.quote || d.outOfAreaZip || d.cleanTypeNotOffered) return [];
  return (await openTimesForDuration(db, pro, d.quote.duration_minutes, { days: DEFAULT_DAYS, now })).times;
}

/** A few starts on different days, as a customer reads them. */
export function draftTimes(pro: Pro, times: OpenTime[], now: Date): string[] {
  return spreadTimes(times.map((t) => ({ label: formatLabel(t.start, pro.timezone, now), day: localDate(t.start, pro.timezone) })));
}
