import {
  AppError,
  addDays,
  cancellationMessage,
  formatLabel,
  formatLocalIso,
  hostStoppedMessage,
  instantAtLocal,
  justTakenByAnotherWriter,
  localDate,
  noCrewInWindow,
  requireFirmQuote,
  rescheduleMessage,
  turnoverAttentionMessage,
  turnoverBookedMessage,
  turnoverCancelledMessage,
  turnoverMovedMessage,
  turnoverNote,
  type EventKind,
  type Job,
} from '@frontdesk/domain';
import {
  appendEvent,
  linkStayBooking,
  liveStays,
  lockBooking,
  markCancelled,
  moveBooking,
  updateStay,
  type Booking,
  type Crew,
  type Db,
  type Pro,
  type Property,
  type Stay,
} from '@frontdesk/db';
import { bookWithin } from './book';
import { bookedInto, earliestOpenSlot, earliestOpenStart, readBusyDays, recordChange, requireOpenStart, type BusyDays, type HeldStart } from './booking-change';
import { namedCrew } from './crews';
import { feeCarriedBy, tellHost, turnoverFee, type HostMail } from './host-mail';

/**
 * Planning a stay's turnover clean (issue 37), inside the sync's transaction, which holds the
 * business's row and then the property's: the clean goes in the window from the stay's checkout
 * (its last day at the property's checkout time) to the next stay's check-in (its first day at
 * the check-in time), or to the end of the checkout day when nothing follows, at the earliest
 * start a crew can take by the ordinary booking rules. A clean that has started is never touched.
 */
export interface Plan {
  pro: Pro;
  property: Property;
  now: Date;
  /** The calendars' changes to a host-requested property's cleans are mailed to its host (none without it: the owner's own acts). */
  host?: HostMail;
  /**
   * A sync planning many stays: the crews' days over [from, to), read once when a new clean is
   * first searched for and kept current as cleans are booked; forgotten when a clean moves or is
   * cancelled (read again when needed).
   */
  days?: { from: Date; to: Date; read?: BusyDays };
}

export interface Window {
  from: Date;
  to: Date;
  /** Whether a next stay's check-in ends the window (else the checkout day's end does). */
  nextCheckIn: boolean;
}

/** The window of each stay, given the stays in date order. */
export function windowOf(p: Plan, stay: Pick<Stay, 'end_date'>, next: Pick<Stay, 'start_date'> | undefined): Window {
  const zone = p.pro.timezone;
  const from = instantAtLocal(stay.end_date, p.property.checkout_time, zone);
  const to = next ? instantAtLocal(next.start_date, p.property.checkin_time, zone) : instantAtLocal(addDays(stay.end_date, 1), '00:00', zone);
  return { from, to, nextCheckIn: next !== undefined };
}

const turnoverJob = (p: Property): Job => ({
  bedrooms: p.bedrooms,
  bathrooms: p.bathrooms,
  clean_type: 'turnover',
  sqft: null,
  frequency: 'once',
  add_ons: p.add_ons,
  pets: p.pets,
});

const HOST_TOLD = { 'turnover.booked': 'booked', 'turnover.moved': 'moved', 'turnover.cancelled': 'cancelled' } as const;

/**
 * A turnover event in the business's feed: the one place the planner reports a change, so the
 * one place a host-requested property's host is told of it (with the plan's host mail).
 */
async function event(trx: Db, p: Plan, e: { kind: EventKind; payload: Record<string, unknown>; told?: { booking: Booking; from?: Date } }) {
  const { kind, payload, told } = e;
  await appendEvent(trx, p.pro.id, { kind, payload: { property_id: p.property.id, ...payload }, at: p.now });
  const change = HOST_TOLD[kind as keyof typeof HOST_TOLD];
  if (told && change) await tellHost(trx, { host: p.host, pro: p.pro, property: p.property, kind: change, ...told, now: p.now });
}

const crewOf = (b: Booking) => ({ crew_id: b.crew_id, crew_name: b.crew_name });

/**
 * The stay's clean as it should be: kept while it fits its window, else moved; booked or
 * proposed when it has none. `stay.locked` is its booking when the caller has already locked it
 * (null: it has none); else it is locked here.
 */
export async function planStay(trx: Db, p: Plan, s: { stay: Stay; window: Window; locked?: Booking | null; calendarChanged?: boolean }): Promise<void> {
  const { stay, window: w, locked } = s;
  if (w.from.getTime() <= p.now.getTime()) return; // its checkout has passed: nothing to plan or change
  const booking = locked !== undefined ? (locked ?? undefined) : stay.booking_id ? await lockBooking(trx, stay.booking_id, p.pro.id) : undefined;
  if (booking && booking.status !== 'booked') return; // cancelled by the owner or a no-show: theirs to decide
  if (booking && booking.starts_at.getTime() <= p.now.getTime()) return;
  if (booking && booking.starts_at >= w.from && booking.ends_at <= w.to) return;
  if (!booking && stay.proposed_start && stay.proposed_start >= w.from && stay.proposed_start <= w.to) return;
  let found: { start: Date; crew: Crew | undefined; minutes: number } | null;
  try {
    found = await findStart(trx, p, w, booking);
  } catch (err) {
    if (err instanceof AppError) return needsAttention(trx, p, stay, err.message);
    throw err;
  }
  if (!found)
    return needsAttention(trx, p, stay, noCrewInWindow(formatLabel(w.from, p.pro.timezone), w.nextCheckIn ? formatLabel(w.to, p.pro.timezone) : null));
  // A move the calendars caused is the host's news; one the owner's own change caused (the property's times, its crew) is not.
  if (booking) return moveClean(trx, p, { stay, booking, start: found.start, minutes: found.minutes, tellHost: s.calendarChanged !== false });
  if (p.property.mode === 'propose') return propose(trx, stay, found.start);
  await bookClean(trx, p, stay, found);
}

/** How accepting a proposal ended: booked as proposed, booked at another start (the proposed one was taken), or needing the owner. */
export type Acceptance = { outcome: 'as_proposed' | 'replanned'; booking: Booking } | { outcome: 'needs_attention'; reason: string };

/**
 * Accepting a stay's proposed clean, under the sync's locks: its proposed start is booked as a
 * `book`-mode property's clean is (`turnover.booked`) while it still fits the window;
 * else the earliest start that fits now, or needs attention with the reason.
 */
export async function acceptPlan(trx: Db, p: Plan, stay: Stay, w: Window): Promise<Acceptance> {
  const booking: Plan = { ...p, property: { ...p.property, mode: 'book' } };
  const proposed = stay.proposed_start;
  if (proposed && proposed >= w.from && proposed > p.now) {
    const crew = p.property.crew_id ? await namedCrew(trx, p.pro.id, p.property.crew_id) : undefined;
    const minutes = requireFirmQuote(turnoverJob(p.property), p.pro.price_list).duration_minutes;
    const end = new Date(proposed.getTime() + minutes * 60_000);
    const to = end < w.to ? end : w.to;
    // The proposed start alone is judged: it is free when the earliest open start up to its own end is itself.
    const open = await earliestOpenStart(trx, { pro: p.pro, start: proposed, to, durationMinutes: minutes, now: p.now, crew });
    if (open?.getTime() === proposed.getTime()) return { outcome: 'as_proposed', booking: await bookClean(trx, booking, stay, { start: proposed, crew }) };
  }
  await planStay(trx, booking, { stay: { ...stay, proposed_start: null }, window: w });
  const after = (await liveStays(trx, p.property.id)).find((s) => s.id === stay.id);
  const booked = after?.booking_id ? await lockBooking(trx, after.booking_id, p.pro.id) : undefined;
  if (booked) return { outcome: 'replanned', booking: booked };
  return { outcome: 'needs_attention', reason: after?.attention ?? stay.attention ?? '' };
}

async function findStart(trx: Db, p: Plan, w: Window, moving: Booking | undefined) {
  const crew = p.property.crew_id ? await namedCrew(trx, p.pro.id, p.property.crew_id) : undefined;
  const minutes = moving
    ? (moving.ends_at.getTime() - moving.starts_at.getTime()) / 60_000
    : requireFirmQuote(turnoverJob(p.property), p.pro.price_list).duration_minutes;
  const judge = { pro: p.pro, start: w.from, to: w.to, durationMinutes: minutes, now: p.now, crew, moving };
  if (moving) {
    const start = await earliestOpenStart(trx, judge);
    return start && { start, crew, minutes };
  }
  // A new clean's slot and crew come with its start, from the one read of the crews' days that found it.
  const days = p.days && (p.days.read ??= await readBusyDays(trx, p.pro.id, p.days.from, p.days.to));
  const judged = await earliestOpenSlot(trx, { ...judge, days });
  return judged && { start: judged.start, crew, minutes, judged };
}

async function needsAttention(trx: Db, p: Plan, stay: Stay, reason: string): Promise<void> {
  if (stay.attention === reason) return; // told once
  await updateStay(trx, stay.id, { attention: reason, proposed_start: null, proposed_crew_id: null });
  const message = turnoverAttentionMessage(p.property.name, reason);
  await event(trx, p, { kind: 'turnover.needs_attention', payload: { stay_id: stay.id, checkout: stay.end_date, reason, message } });
}

async function propose(trx: Db, stay: Stay, start: Date): Promise<void> {
  // The dashboard and list_properties show it; it becomes a booking when the owner accepts it.
  await updateStay(trx, stay.id, { proposed_start: start, attention: null });
}

/**
 * Books the clean through the ordinary path and ties it to its stay. The host is its customer;
 * a business's own property carries no fee, a host-requested one its one fee (turnoverFee).
 */
async function bookClean(trx: Db, p: Plan, stay: Stay, found: { start: Date; crew: Crew | undefined; judged?: HeldStart & { start: Date } }): Promise<Booking> {
  const { property } = p;
  const feeCents = await turnoverFee(trx, property);
  const { booking } = await bookWithin(
    trx,
    {
      proId: p.pro.id,
      job: turnoverJob(property),
      start: found.start,
      customer: { name: property.host_name, phone: property.host_phone, email: property.host_email },
      address: property.address,
      zip: property.zip,
      notes: turnoverNote(property.name, stay.end_date),
      accessDetails: null,
      channel: 'pro',
      clientName: 'Turnovers',
      leadId: null,
      feeCents,
      manageToken: false,
      accountEmail: null,
      expectedTotalCents: null,
      crewId: found.crew?.id ?? null,
      now: p.now,
    },
    { pro: p.pro, judged: found.judged },
  ); // the business's row is the sync's, locked already
  // The stay takes one booking only: a second writer that got here first wins, and this one rolls back.
  if (!(await linkStayBooking(trx, stay.id, booking.id))) throw justTakenByAnotherWriter();
  if (p.days?.read) bookedInto(p.days.read, { start: booking.starts_at, blockedUntil: booking.blocked_until, crewId: booking.crew_id });
  if (feeCents) await feeCarriedBy(trx, property, booking.id);
  const label = formatLabel(booking.starts_at, p.pro.timezone);
  const payload = {
    stay_id: stay.id,
    booking_id: booking.id,
    start: formatLocalIso(booking.starts_at, p.pro.timezone),
    label,
    ...crewOf(booking),
    message: turnoverBookedMessage(property.name, label),
  };
  await event(trx, p, { kind: 'turnover.booked', payload, told: { booking } });
  return booking;
}

async function moveClean(trx: Db, p: Plan, m: { stay: Stay; booking: Booking; start: Date; minutes: number; tellHost: boolean }): Promise<void> {
  const { pro, now } = p;
  const slot = await requireOpenStart(trx, { pro, start: m.start, durationMinutes: m.minutes, now, moving: m.booking, prefer: m.booking.crew_id });
  const moved = await moveBooking(trx, m.booking.id, { start: m.start, ...slot, now });
  if (p.days) p.days.read = undefined;
  if (m.stay.attention) await updateStay(trx, m.stay.id, { attention: null });
  const [from, to] = [formatLocalIso(m.booking.starts_at, pro.timezone), formatLocalIso(moved.starts_at, pro.timezone)];
  const label = formatLabel(moved.starts_at, pro.timezone);
  await recordChange(trx, {
    pro,
    booking: moved,
    kind: 'booking.rescheduled',
    by: 'pro',
    message: rescheduleMessage('pro', moved.customer_name, formatLabel(m.booking.starts_at, pro.timezone), label),
    payload: {
      booking_id: moved.id,
      series_id: null,
      from,
      to,
      label,
      and_following: false,
      visits_moved: 1,
      customer_name: moved.customer_name,
      rescheduled_by: 'pro',
    },
    now,
  });
  const message = turnoverMovedMessage(p.property.name, label);
  const told = m.tellHost ? { booking: moved, from: m.booking.starts_at } : undefined;
  const payload = { stay_id: m.stay.id, booking_id: moved.id, from, to, label, ...crewOf(moved), message };
  await event(trx, p, { kind: 'turnover.moved', payload, told });
}

/**
 * Cancels a stay's clean that has not started: by the calendars (a plan with host mail tells a
 * host-requested property's host), by the owner removing the property (the host is never
 * messaged), or by the host stopping the arrangement (`by: 'customer'`, confirmed to them by
 * the caller); the booking cancelled, or null when there was nothing live to cancel.
 */
export async function cancelTurnover(trx: Db, c: Plan & { stayId: string; bookingId: string; by?: 'pro' | 'customer' }): Promise<Booking | null> {
  const { pro, now } = c;
  const by = c.by ?? 'pro';
  const booking = await lockBooking(trx, c.bookingId, pro.id);
  if (!booking || booking.status !== 'booked' || booking.starts_at.getTime() <= now.getTime()) return null;
  const cancelled = (await markCancelled(trx, booking.id, by, now))!;
  if (c.days) c.days.read = undefined;
  const label = formatLabel(booking.starts_at, pro.timezone);
  const start = formatLocalIso(booking.starts_at, pro.timezone);
  await recordChange(trx, {
    pro,
    booking: cancelled,
    kind: 'booking.cancelled',
    by,
    message: cancellationMessage(by, booking.customer_name, label),
    payload: { booking_id: booking.id, start, label, customer_name: booking.customer_name, cancelled_by: by },
    now,
  });
  const message = by === 'customer' ? hostStoppedMessage(c.property.name, label) : turnoverCancelledMessage(c.property.name, label);
  const payload = { stay_id: c.stayId, booking_id: booking.id, start, label, message };
  await event(trx, c, { kind: 'turnover.cancelled', payload, told: { booking: cancelled } });
  return cancelled;
}

/** The local day the business is on now (stays that ended before it are history). */
export const todayOf = (p: Pick<Plan, 'pro' | 'now'>) => localDate(p.now, p.pro.timezone);
