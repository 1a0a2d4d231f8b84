import {
  formatLabel,
  formatLocalIso,
  holdGone,
  holdGoneWhy,
  holdIsFor,
  noHold,
  sameJob,
  justTakenByAnotherWriter,
  newBookingMessage,
  noCleaner,
  noLead,
  priceChanged,
  requireFirmQuote,
  seriesConflicts,
  seriesCreatedMessage,
  type Job,
  type Quote,
  type SeriesFrequency,
} from '@frontdesk/domain';
import { conflictLine, firstHorizon, insertVisits, localMinutesOf, planVisits, writeBooking, type SkippedVisit, type VisitTemplate } from './series';
import { nearestOpenStarts, recordChange, requireOpenStart, type HeldStart } from './booking-change';
import { claimedBy, lockHeld, type HoldClaim } from './hold-claims';
import { namedCrew } from './crews';
import { mailBooked, type MailLinks } from './booking-mail';
import {
  appendEvent,
  batchingWrites,
  getLead,
  insertSeries,
  isOverlapViolation,
  lockPro,
  lockProUsingHold,
  markHoldUsed,
  markLeadBooked,
  newId,
  type Booking,
  type BookingChannel,
  type Db,
  type Hold,
  type Pro,
} from '@frontdesk/db';

export interface BookingRequest {
  proId: string;
  job: Job;
  start: Date;
  customer: { name: string; phone: string | null; email: string | null };
  address: string;
  zip: string;
  notes: string | null;
  accessDetails: string | null;
  channel: BookingChannel;
  clientName: string | null;
  leadId: string | null;
  feeCents: number;
  /** A customer's booking gets a manage token, returned once. */
  manageToken: boolean;
  /** The verified email of the customer account the booking belongs to. */
  accountEmail: string | null;
  /** The total the customer was shown; a different current price refuses the booking. */
  expectedTotalCents: number | null;
  /** The crew the business named (book_job's crew_id); without one, the assignment rule picks a free crew. */
  crewId?: string | null;
  /** For a series: book the visits that can be, and list the rest, instead of refusing them all. */
  skipConflicts?: boolean;
  /** A customer's booking on the book host: where their confirmation mail points (no customer mail without it). */
  mail?: MailLinks;
  /** Books what this hold keeps (start, crew, job, total) and uses it up; only its owner may. */
  hold?: HoldClaim;
  now: Date;
}

/** A series a booking started: every visit booked (the first included) and those skipped. */
export interface BookedSeries {
  id: string;
  frequency: SeriesFrequency;
  visits: Booking[];
  skipped: SkippedVisit[];
}

export interface Booked {
  booking: Booking;
  pro: Pro;
  series: BookedSeries | null;
  /** The manage token, when one was asked for: shown once, stored only as a hash. */
  manageToken: string | null;
}

/** What every visit of the booking shares, as a series copies it. */
const templateOf = (req: BookingRequest): VisitTemplate => ({
  pro_id: req.proId,
  channel: req.channel,
  client_name: req.clientName,
  customer_name: req.customer.name,
  customer_phone: req.customer.phone,
  customer_email: req.customer.email,
  address: req.address,
  zip: req.zip,
  notes: req.notes,
  access_details: req.accessDetails,
  account_email: req.accountEmail,
  ...req.job,
});

/** The pro locked (unless the caller locked it already), the job priced from its list, and the price and lead the caller named checked. */
export async function priceUnderLock(
  trx: Db,
  req: Pick<BookingRequest, 'proId' | 'job' | 'expectedTotalCents' | 'leadId'>,
  locked?: Pro,
): Promise<{ pro: Pro; quote: Quote }> {
  const pro = locked ?? (await lockPro(trx, req.proId));
  if (!pro) throw noCleaner(req.proId);
  const quote = requireFirmQuote(req.job, pro.price_list);
  if (req.expectedTotalCents !== null && req.expectedTotalCents !== quote.total_cents) throw priceChanged(quote.total_cents, req.expectedTotalCents);
  if (req.leadId !== null && !(await getLead(trx, pro.id, req.leadId))) throw noLead(req.leadId);
  return { pro, quote };
}

/**
 * Books a start on a pro's schedule. The pro's row is locked first, so bookings of one pro
 * are checked and written one at a time and a refusal can say why; the exclusion
 * constraint on `bookings` still guarantees no overlap whatever path writes.
 * Lock order everywhere: the pro's row, then booking rows.
 */
export async function createBooking(db: Db, req: BookingRequest | BookingFor): Promise<Booked> {
  const asked: BookingFor =
    'make' in req ? req : { proId: req.proId, hold: req.hold, missing: () => (req.hold ? noHold(req.hold.id) : noCleaner(req.proId)), make: () => req };
  try {
    return await db.transaction().execute((trx) =>
      // The booking's news (its event, notification and mail) goes in one statement before the commit.
      batchingWrites(trx, async () => {
        const bookingId = newId('bk');
        const locked = asked.hold
          ? await lockProUsingHold(trx, asked.proId, asked.hold.id, bookingId)
          : { pro: await lockPro(trx, asked.proId), used: undefined };
        if (!locked?.pro) throw asked.missing();
        return bookWithin(trx, asked.make(locked.pro), { pro: locked.pro, used: locked.used, bookingId });
      }),
    );
  } catch (err) {
    // Another writer (another service or replica) got there between our check and insert.
    if (isOverlapViolation(err)) throw justTakenByAnotherWriter();
    throw err;
  }
}

/**
 * A booking asked for by a caller who knows the pro only by id (a customer): the request is
 * made once the pro's row is locked, from the row itself (its zone reads the start, its ZIPs
 * judge the address), so no read of the pro goes before the transaction.
 */
export interface BookingFor {
  proId: string;
  hold?: HoldClaim;
  /** The refusal when there is no such pro. */
  missing(): Error;
  make(pro: Pro): BookingRequest;
}

/** What createBooking locked before the request was made: the pro, the hold its first statement used (as it was before), and the booking's id. */
interface Locked {
  pro: Pro;
  used?: Hold;
  bookingId?: string;
  /**
   * The slot and crew the caller has just judged open by requireOpenStart's rules, in this
   * transaction under the pro's row (a turnover's earliest open start): not judged again.
   */
  judged?: HeldStart & { start: Date };
}

/** createBooking's work inside a transaction the caller owns (a turnover books with its stay in one). */
export async function bookWithin(trx: Db, req: BookingRequest, locked?: Locked): Promise<Booked> {
  const bookingId = locked?.bookingId ?? newId('bk');
  const { pro, quote, slot, leadId } = req.hold ? await useHold(trx, req, req.hold, { bookingId, locked }) : await openSlot(trx, req, locked);
  // A hold taken for a lead books that lead unless the call names another.
  if (leadId !== req.leadId) req = { ...req, leadId };
  const series = req.job.frequency === 'once' ? null : await startSeries(trx, { pro, req, bookingId, slot });
  const { booking, manageToken } = await writeBooking(trx, templateOf(req), {
    id: bookingId,
    seriesId: series?.id ?? null,
    leadId: req.leadId,
    slot,
    quote,
    feeCents: req.feeCents,
    manageToken: req.manageToken,
    now: req.now,
  });
  if (req.leadId !== null) await markLeadBooked(trx, req.leadId, req.now);
  await recordBooked(trx, pro, { booking, quote }, req);
  if (!series) {
    await mailBooked(trx, { pro, booking, series: null, manageToken }, req.mail, req.now);
    return { booking, pro, series: null, manageToken };
  }
  const visits = [booking, ...(await insertVisits(trx, booking, { seriesId: series.id, plan: series.plan }, req.now))];
  await recordSeries(trx, pro, visits, series);
  await mailBooked(trx, { pro, booking, series: { frequency: series.frequency, visits, skipped: series.plan.skipped.length }, manageToken }, req.mail, req.now);
  return { booking, pro, series: { id: series.id, frequency: series.frequency, visits, skipped: series.plan.skipped }, manageToken };
}

/** The start the caller asked for, judged open now, at today's price. */
async function openSlot(trx: Db, req: BookingRequest, locked?: Pick<Locked, 'pro' | 'judged'>) {
  const { pro, quote } = await priceUnderLock(trx, req, locked?.pro);
  const judged = locked?.judged;
  if (judged && judged.start.getTime() === req.start.getTime() && (!req.crewId || req.crewId === judged.crewId))
    return { pro, quote, slot: judged, leadId: req.leadId };
  const crew = req.crewId ? await namedCrew(trx, pro.id, req.crewId) : undefined;
  const slot = {
    start: req.start,
    ...(await requireOpenStart(trx, { pro, start: req.start, durationMinutes: quote.duration_minutes, now: req.now, crew })),
  };
  return { pro, quote, slot, leadId: req.leadId };
}

/**
 * The slot a hold keeps, at the total it was quoted, the hold used up before the booking is
 * written (so it does not stand in its own booking's way). Its owner's alone; an expired,
 * released or used one is refused with the nearest open times for the same job.
 */
async function useHold(trx: Db, req: BookingRequest, claim: HoldClaim, o: { bookingId: string; locked?: Locked }) {
  const { bookingId, locked } = o;
  // createBooking's first statement used the hold already when it was live; a refusal below rolls that back.
  const pro = locked ? locked.pro : await lockPro(trx, req.proId);
  const used = locked?.used && claimedBy(locked.used, claim) ? { ...locked.used, live: true } : undefined;
  const held = used ?? (pro && !locked?.used && (await lockHeld(trx, pro, claim)));
  if (!pro || !held) throw noHold(claim.id);
  const gone = holdGoneWhy(held, req.now);
  if (gone) {
    const nearest = await nearestOpenStarts(trx, { pro, start: held.starts_at, durationMinutes: held.quote.duration_minutes, now: req.now });
    throw holdGone(held.id, gone, nearest);
  }
  if (held.starts_at.getTime() !== req.start.getTime()) throw holdIsFor('start', formatLabel(held.starts_at, pro.timezone, req.now));
  if (!sameJob(held.job, req.job)) throw holdIsFor('the job', held.quote.summary);
  if (req.crewId && req.crewId !== held.crew_id) throw holdIsFor('crew_id', held.crew_id);
  if (req.leadId !== null && !(await getLead(trx, pro.id, req.leadId))) throw noLead(req.leadId);
  if (req.expectedTotalCents !== null && req.expectedTotalCents !== held.price_cents) throw priceChanged(held.price_cents, req.expectedTotalCents);
  if (!used) await markHoldUsed(trx, held.id, bookingId);
  const slot = { start: held.starts_at, end: held.ends_at, blockedUntil: held.blocked_until, crewId: held.crew_id };
  return { pro, quote: held.quote, slot, leadId: req.leadId ?? held.lead_id };
}

/**
 * A recurring job books a series: every visit through the horizon is checked first, and one
 * that cannot be held refuses the whole series unless the caller said to skip it.
 */
async function startSeries(trx: Db, s: { pro: Pro; req: BookingRequest; bookingId: string; slot: { start: Date; blockedUntil: Date; crewId: string } }) {
  const { pro, req } = s;
  const frequency = req.job.frequency as SeriesFrequency;
  const horizon = firstHorizon(pro, req.start, frequency, req.now);
  const localMinutes = localMinutesOf(req.start, pro.timezone);
  const plan = await planVisits(trx, { pro, job: req.job, dates: horizon.dates, localMinutes, held: [s.slot], crewId: s.slot.crewId, now: req.now });
  if (plan.skipped.length && !req.skipConflicts) throw seriesConflicts(plan.skipped.map(conflictLine));
  const id = newId('sr');
  await insertSeries(trx, {
    id,
    pro_id: pro.id,
    frequency,
    local_minutes: localMinutes,
    first_date: horizon.firstDate,
    planned_through: horizon.through,
    template_booking_id: s.bookingId,
    created_at: req.now,
  });
  return { id, frequency, plan };
}

/** The new booking in the business's feed; a customer's also waits, unread, on its schedule. */
async function recordBooked(trx: Db, pro: Pro, made: { booking: Booking; quote: Quote }, req: BookingRequest): Promise<void> {
  const { booking, quote } = made;
  const label = formatLabel(booking.starts_at, pro.timezone);
  const message = newBookingMessage({
    channel: req.channel,
    clientName: req.clientName,
    customerName: booking.customer_name,
    label,
    job: req.job,
    totalCents: quote.total_cents,
  });
  await recordChange(trx, {
    pro,
    booking,
    kind: 'booking.created',
    by: req.channel === 'book' ? 'customer' : 'pro',
    message,
    payload: {
      booking_id: booking.id,
      start: formatLocalIso(booking.starts_at, pro.timezone),
      label,
      customer_name: booking.customer_name,
      channel: req.channel,
      client_name: req.clientName,
      total: quote.total_cents / 100,
    },
    now: req.now,
  });
}

async function recordSeries(trx: Db, pro: Pro, visits: Booking[], s: { id: string; frequency: SeriesFrequency; plan: { skipped: SkippedVisit[] } }) {
  const first = visits[0]!;
  await appendEvent(trx, pro.id, {
    kind: 'series.created',
    payload: {
      series_id: s.id,
      frequency: s.frequency,
      visits: visits.length,
      first_start: formatLocalIso(first.starts_at, pro.timezone),
      skipped: s.plan.skipped.map((v) => v.label),
      customer_name: first.customer_name,
      crew_id: first.crew_id,
      crew_name: first.crew_name,
      message: seriesCreatedMessage({
        customerName: first.customer_name,
        frequency: s.frequency,
        visits: visits.length,
        first: formatLabel(first.starts_at, pro.timezone),
        skipped: s.plan.skipped.length,
      }),
    },
    at: first.created_at,
  });
}
