import {
  formatLabel,
  formatLocalIso,
  justTakenByAnotherWriter,
  newBookingMessage,
  noCleaner,
  noLead,
  priceChanged,
  requireFirmQuote,
  seriesConflicts,
  seriesCreatedMessage,
  type Job,
  type SeriesFrequency,
} from '@frontdesk/domain';
import { conflictLine, firstHorizon, insertVisits, localMinutesOf, planVisits, type PlannedVisits, type SkippedVisit } from './series';
import { recordChange, requireOpenStart } from './booking-change';
import {
  appendEvent,
  getLead,
  insertBooking,
  isOverlapViolation,
  jobColumns,
  lockPro,
  markLeadBooked,
  newId,
  type Booking,
  type BookingChannel,
  type Db,
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
  manageTokenHash: Buffer | null;
  /** The verified email of the customer account the booking belongs to. */
  accountEmail: string | null;
  /** The total the customer was shown; a different current price refuses the booking. */
  expectedTotalCents: number | null;
  /** For a series: book the visits that can be, and list the rest, instead of refusing them all. */
  skipConflicts?: boolean;
  now: Date;
}

/** A series a booking started: every visit booked (the first included) and those skipped. */
export interface BookedSeries {
  id: string;
  frequency: SeriesFrequency;
  visits: Booking[];
  skipped: SkippedVisit[];
}

/**
 * Books a start on a pro's schedule. The pro's row is locked first, so bookings of one pro
 * are checked and written one at a time and a refusal can say why; the exclusion
 * constraint on `bookings` still guarantees no overlap whatever path writes.
 * Lock order everywhere: the pro's row, then booking rows.
 */
export async function createBooking(db: Db, req: BookingRequest): Promise<{ booking: Booking; pro: Pro; series: BookedSeries | null }> {
  try {
    return await db.transaction().execute(async (trx) => {
      const pro = await lockPro(trx, req.proId);
      if (!pro) throw noCleaner(req.proId);
      const quote = requireFirmQuote(req.job, pro.price_list);
      if (req.expectedTotalCents !== null && req.expectedTotalCents !== quote.total_cents) {
        throw priceChanged(quote.total_cents, req.expectedTotalCents);
      }
      if (req.leadId !== null && !(await getLead(trx, pro.id, req.leadId))) throw noLead(req.leadId);

      const { end, blockedUntil } = await requireOpenStart(trx, pro, req.start, quote.duration_minutes, req.now);

      // A recurring job books a series: every visit through the horizon is checked first, and
      // one that cannot be held refuses the whole series unless the caller said to skip it.
      const bookingId = newId('bk');
      const frequency = req.job.frequency === 'once' ? null : req.job.frequency;
      let seriesId: string | null = null;
      let plan: PlannedVisits | null = null;
      let horizon: ReturnType<typeof firstHorizon> | null = null;
      if (frequency) {
        horizon = firstHorizon(pro, req.start, frequency, req.now);
        plan = await planVisits(trx, pro, req.job, horizon.dates, localMinutesOf(req.start, pro.timezone), [{ start: req.start, blockedUntil }], req.now);
        if (plan.skipped.length && !req.skipConflicts) {
          throw seriesConflicts(plan.skipped.map(conflictLine));
        }
        seriesId = newId('sr');
        await trx
          .insertInto('series')
          .values({
            id: seriesId,
            pro_id: pro.id,
            frequency,
            local_minutes: localMinutesOf(req.start, pro.timezone),
            first_date: horizon.firstDate,
            planned_through: horizon.through,
            template_booking_id: bookingId,
            ended_at: null,
            created_at: req.now,
          })
          .execute();
      }

      const booking = await insertBooking(trx, {
        id: bookingId,
        series_id: seriesId,
        pro_id: pro.id,
        lead_id: req.leadId,
        channel: req.channel,
        client_name: req.clientName,
        starts_at: req.start,
        ends_at: end,
        blocked_until: blockedUntil,
        customer_name: req.customer.name,
        customer_phone: req.customer.phone,
        customer_email: req.customer.email,
        address: req.address,
        zip: req.zip,
        notes: req.notes,
        access_details: req.accessDetails,
        ...jobColumns(req.job),
        price_cents: quote.total_cents,
        quote: JSON.stringify(quote),
        fee_cents: req.feeCents,
        fee_waived_at: null,
        manage_token_hash: req.manageTokenHash,
        account_email: req.accountEmail,
        cancelled_at: null,
        cancelled_by: null,
        no_show_reported_at: null,
        created_at: req.now,
        updated_at: req.now,
      });
      if (req.leadId !== null) await markLeadBooked(trx, req.leadId, req.now);
      const later = seriesId && plan ? await insertVisits(trx, booking, seriesId, plan, req.now) : [];

      const label = formatLabel(booking.starts_at, pro.timezone);
      const message = newBookingMessage({
        channel: req.channel,
        clientName: req.clientName,
        customerName: booking.customer_name,
        label,
        job: req.job,
        totalCents: quote.total_cents,
      });
      // A customer's booking is news for the pro: it waits, unread, on the schedule.
      await recordChange(trx, {
        pro,
        bookingId: booking.id,
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
      if (!seriesId || !plan || !frequency) return { booking, pro, series: null };
      const visits = [booking, ...later];
      await appendEvent(
        trx,
        pro.id,
        'series.created',
        {
          series_id: seriesId,
          frequency,
          visits: visits.length,
          first_start: formatLocalIso(booking.starts_at, pro.timezone),
          skipped: plan.skipped.map((v) => v.label),
          customer_name: booking.customer_name,
          message: seriesCreatedMessage(booking.customer_name, frequency, visits.length, label, plan.skipped.length),
        },
        req.now,
      );
      return { booking, pro, series: { id: seriesId, frequency, visits, skipped: plan.skipped } };
    });
  } catch (err) {
    // Another writer (another service or replica) got there between our check and insert.
    if (isOverlapViolation(err)) throw justTakenByAnotherWriter();
    throw err;
  }
}
