import {
  checkSummary,
  formatLabel,
  holdReleasedMessage,
  formatLocalIso,
  formatTimeOfDay,
  isPlatformSource,
  nextFollowUpDue,
  toUsd,
  type SeriesFrequency,
} from '@frontdesk/domain';
import type { Booking, Hold, Lead, Pro, ProCheck } from '@frontdesk/db';

/**
 * How rows are shown in answers: one shape per kind of thing, shared by every operation
 * that shows one, so a booking looks the same in book_job, schedule and booking_status.
 */

/** What pro and customer both see of a booking: when, where, what, for how much. */
export function bookingDetails(b: Booking, timezone: string) {
  return {
    booking_id: b.id,
    series_id: b.series_id,
    status: b.status,
    start: formatLocalIso(b.starts_at, timezone),
    end: formatLocalIso(b.ends_at, timezone),
    label: formatLabel(b.starts_at, timezone),
    crew_id: b.crew_id,
    crew_name: b.crew_name,
    customer: { name: b.customer_name, phone: b.customer_phone, email: b.customer_email },
    address: b.address,
    zip: b.zip,
    notes: b.notes,
    access_details: b.access_details,
    job: {
      bedrooms: b.bedrooms,
      bathrooms: b.bathrooms,
      clean_type: b.clean_type,
      sqft: b.sqft,
      frequency: b.frequency,
      add_ons: b.add_ons,
      pets: b.pets,
    },
    total: toUsd(b.price_cents),
    line_items: b.quote.line_items.map((l) => ({ label: l.label, amount: toUsd(l.amount_cents) })),
    estimated_hours: b.quote.estimated_hours,
    cancelled_at: b.cancelled_at?.toISOString() ?? null,
    cancelled_by: b.cancelled_by,
    property_id: b.property_id,
  };
}

/** A booking as the pro sees it: the details, who booked it through what, and the fee. */
export function presentBooking(b: Booking, timezone: string) {
  return {
    ...bookingDetails(b, timezone),
    channel: b.channel,
    client_name: b.client_name,
    lead_id: b.lead_id,
    fee: b.fee_waived_at || b.status === 'cancelled' ? 0 : toUsd(b.fee_cents),
    created_at: b.created_at.toISOString(),
  };
}

/** release_hold's answer on both hosts: a used hold is said to be used, anything else released. */
export function presentRelease({ hold, pro, state }: { hold: Hold; pro: Pro; state: 'released' | 'expired' | 'used' }) {
  const status = state === 'used' ? ('used' as const) : ('released' as const);
  return { hold_id: hold.id, status, message: holdReleasedMessage(formatLabel(hold.starts_at, pro.timezone), status) };
}

/** A hold as both hosts show it. */
export function presentHold(h: Hold, c: { timezone: string; crewName: string }) {
  return {
    hold_id: h.id,
    start: formatLocalIso(h.starts_at, c.timezone),
    end: formatLocalIso(h.ends_at, c.timezone),
    label: formatLabel(h.starts_at, c.timezone),
    expires_at: formatLocalIso(h.expires_at, c.timezone),
    crew_id: h.crew_id,
    crew_name: c.crewName,
    lead_id: h.lead_id,
    job: {
      bedrooms: h.job.bedrooms,
      bathrooms: h.job.bathrooms,
      clean_type: h.job.clean_type,
      sqft: h.job.sqft,
      frequency: h.job.frequency,
      add_ons: h.job.add_ons,
      pets: h.job.pets,
    },
    total: toUsd(h.price_cents),
    line_items: h.quote.line_items.map((l) => ({ label: l.label, amount: toUsd(l.amount_cents) })),
  };
}

/** Until when a hold lasts, as a sentence says it: the time of day when it ends within hours, else the day too. */
export const heldUntil = (h: Hold, timezone: string) =>
  h.expires_at.getTime() - h.created_at.getTime() <= 12 * 3_600_000 ? formatTimeOfDay(h.expires_at, timezone) : formatLabel(h.expires_at, timezone);

/** A lead as the pro-desk shows it. Platform leads never have a name or contact to show. */
export function presentLead(l: Lead, timezone: string) {
  const next = nextFollowUpDue(l);
  return {
    lead_id: l.id,
    source: l.source,
    platform: isPlatformSource(l.source),
    lead_ref: l.lead_ref,
    customer_first_name: l.customer_first_name,
    contact: l.contact,
    zip: l.zip,
    lead_cost: toUsd(l.lead_cost_cents),
    job: {
      bedrooms: l.bedrooms,
      bathrooms: l.bathrooms,
      clean_type: l.clean_type,
      sqft: l.sqft,
      frequency: l.frequency,
      add_ons: l.add_ons,
      pets: l.pets,
    },
    quote_total: l.quote_total_cents === null ? null : toUsd(l.quote_total_cents),
    status: l.status,
    contacted: l.contacted,
    follow_ups_sent: l.follow_ups_sent,
    last_follow_up_at: l.last_follow_up_at ? formatLocalIso(l.last_follow_up_at, timezone) : null,
    next_follow_up_due: next ? formatLocalIso(next.dueAt, timezone) : null,
    notes: l.notes,
    flagged: l.flag_reason
      ? { reason: l.flag_reason, evidence: l.flag_evidence ?? [], flagged_at: l.flagged_at ? formatLocalIso(l.flagged_at, timezone) : null }
      : null,
    logged_at: formatLocalIso(l.quoted_at, timezone),
  };
}

/** A check as a customer sees it: what was seen, on which day, in a sentence. */
export function presentCheck(c: ProCheck) {
  return { kind: c.kind, subject: c.subject, passed: c.passed, rating: c.rating, reviews: c.reviews, checked_on: c.checked_on, summary: checkSummary(c) };
}

/** A series as book_job and book_cleaning answer it. */
export function presentSeries(
  series: { id: string; frequency: SeriesFrequency; visits: Booking[]; skipped: { start: Date; label: string; reason: string }[] } | null,
  timezone: string,
) {
  if (!series) return null;
  return {
    series_id: series.id,
    frequency: series.frequency,
    visits: series.visits.map((v) => ({
      booking_id: v.id,
      start: formatLocalIso(v.starts_at, timezone),
      label: formatLabel(v.starts_at, timezone),
      total: toUsd(v.price_cents),
      crew_id: v.crew_id,
      crew_name: v.crew_name,
    })),
    skipped: series.skipped.map((v) => ({ start: formatLocalIso(v.start, timezone), label: v.label, reason: v.reason })),
  };
}
