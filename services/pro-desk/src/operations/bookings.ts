import {
  andFollowingSchema,
  moveFollowingSchema,
  notifyCustomerSchema,
  etaMinutesSchema,
  onMyWayAlreadySentMessage,
  onMyWaySentMessage,
  pauseWeeksSchema,
  planPausedMessage,
  answer,
  bookingDetailsProperties,
  bool,
  customerSchema,
  int,
  num,
  proBookingSchema,
  seriesInputSchemas,
  seriesSchema,
  str,
  BOOKING_FEE_TEXT,
  bookedByProMessage,
  cancelledByProMessage,
  laterVisitsCancelled,
  laterVisitsMoved,
  noShowRecordedMessage,
  rescheduledByProMessage,
  movedAndEmailedMessage,
  seriesSummary,
  customerFieldSchemas,
  described,
  holdIdSchema,
  idSchema,
  jobFieldSchemas,
  singleLine,
  fields,
} from '@frontdesk/domain';
import {
  bookJob as bookJobOnSchedule,
  cancelJob as cancelJobOnSchedule,
  presentBooking,
  pauseSeries,
  presentSeries,
  reportNoShow,
  notifyOnMyWay,
  rescheduleJob as rescheduleJobOnSchedule,
} from '@frontdesk/use-cases';
import { WRITES, OVERWRITES, REMOVES } from '@frontdesk/http';
import { formatLabel, formatLocalIso, listOf } from '@frontdesk/domain';
import type { AppContext } from '../context';
import { defineOperation } from './define';
import { proHoldClaim } from './holds';

/** What cancel_job, reschedule_job and report_no_show say about the booking they changed. */
const changedBooking = {
  booking_id: str,
  status: bookingDetailsProperties.status,
  start: str,
  label: str,
  crew_id: str,
  crew_name: str,
  customer: customerSchema,
};
const changed = ({ booking_id, status, start, label, crew_id, crew_name, customer }: ReturnType<typeof presentBooking>) => ({
  booking_id,
  status,
  start,
  label,
  crew_id,
  crew_name,
  customer,
});

/** How the business can reach the customer, to tell them what changed. */
const reachOf = (shown: ReturnType<typeof presentBooking>) => [shown.customer.phone, shown.customer.email].filter(Boolean).join(' or ');

const startSchema = (what: string) => singleLine({ minLength: 10, maxLength: 40, description: `${what} from open_times, unchanged.` });

export const bookJob = (ctx: AppContext) =>
  defineOperation({
    name: 'book_job',
    tag: 'bookings',
    title: 'Book a job',
    description: "Books a job on this business's own schedule (never other cleaners), no fee. Confirm first. The customer is not messaged.",
    method: 'POST',
    input: fields(
      {
        lead_id: idSchema('Marks this lead booked.'),
        ...jobFieldSchemas,
        start: startSchema('A start'),
        ...customerFieldSchemas,
        ...seriesInputSchemas,
        crew_id: idSchema('Default a free crew.'),
        hold_id: described(holdIdSchema, 'From hold_time: books its start at its total.'),
      },
      ['bedrooms', 'bathrooms', 'start', 'customer_name', 'address', 'zip'],
    ),
    output: answer({ ...proBookingSchema.properties, series: seriesSchema, message: str }),
    ...WRITES,
    async handler(input, { principal: pro, clientName, now }) {
      const hold = input.hold_id === undefined ? undefined : proHoldClaim(pro, input.hold_id);
      const { booking, series } = await bookJobOnSchedule(ctx.db, pro, input, { clientName, hold, now });
      const shown = presentBooking(booking, pro.timezone);
      return {
        ...shown,
        series: presentSeries(series, pro.timezone),
        message: `${bookedByProMessage(shown.customer.name, shown.label, booking.price_cents)}${series ? ` ${seriesSummary(series.visits.length, series.skipped.length)}` : ''}`,
      };
    },
  });

export const cancelJob = (ctx: AppContext) =>
  defineOperation({
    name: 'cancel_job',
    tag: 'bookings',
    title: 'Cancel a job',
    description: 'Cancels an upcoming job; no fee. Confirm first. The customer is NOT messaged: tell the pro to inform them.',
    method: 'POST',
    instruction: 'The service never messages customers. After cancel_job, tell the pro to inform the customer.',
    input: fields({ booking_id: idSchema(), and_following: andFollowingSchema }, ['booking_id']),
    output: answer({
      ...changedBooking,
      fee: num,
      customer_notified: bool,
      visits_cancelled: int,
      message: str,
    }),
    ...REMOVES,
    async handler(input, { principal: pro, now }) {
      const { booking, followingCancelled } = await cancelJobOnSchedule(ctx.db, pro, input, now);
      const shown = presentBooking(booking, pro.timezone);
      return {
        ...changed(shown),
        fee: 0,
        customer_notified: false,
        visits_cancelled: 1 + followingCancelled,
        message: `${cancelledByProMessage(shown.customer.name, shown.label, reachOf(shown))}${laterVisitsCancelled(followingCancelled)}`,
      };
    },
  });

export const rescheduleJob = (ctx: AppContext) =>
  defineOperation({
    name: 'reschedule_job',
    tag: 'bookings',
    title: 'Move a job',
    description:
      'Moves an upcoming job to a new start; same price. Confirm first. The customer is NOT messaged: tell the pro to inform them (unless notify_customer).',
    method: 'POST',
    input: fields({ booking_id: idSchema(), start: startSchema('The new start'), and_following: moveFollowingSchema, notify_customer: notifyCustomerSchema }, [
      'booking_id',
      'start',
    ]),
    output: answer({ ...changedBooking, previous_start: str, previous_label: str, visits_moved: int, customer_notified: bool, message: str }),
    ...OVERWRITES,
    idempotent: true,
    async handler(input, { principal: pro, now }) {
      const mail = { bookingUrl: ctx.config.bookingUrl, dashboardUrl: `${ctx.config.publicUrl}/dashboard` };
      const { booking, previous, followingMoved, customerNotified } = await rescheduleJobOnSchedule(ctx.db, pro, input, { mail, now });
      const shown = presentBooking(booking, pro.timezone);
      const before = presentBooking(previous, pro.timezone);
      const said = customerNotified
        ? movedAndEmailedMessage(shown.customer.name, before.label, shown.label)
        : rescheduledByProMessage(shown.customer.name, before.label, shown.label, reachOf(shown));
      return {
        ...changed(shown),
        previous_start: before.start,
        previous_label: before.label,
        visits_moved: 1 + followingMoved,
        customer_notified: customerNotified,
        message: `${said}${laterVisitsMoved(followingMoved)}`,
      };
    },
  });

export const reportNoShowOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'report_no_show',
    tag: 'bookings',
    title: 'Report a no-show',
    description: `Records that the customer neither came nor cancelled; waives the ${BOOKING_FEE_TEXT} booking-service fee. Confirm first.`,
    method: 'POST',
    input: fields({ booking_id: idSchema() }, ['booking_id']),
    output: answer({
      ...changedBooking,
      fee_waived: bool,
      fee: num,
      message: str,
    }),
    ...OVERWRITES,
    async handler(input, { principal: pro, now }) {
      const { booking } = await reportNoShow(ctx.db, pro.id, input.booking_id, now);
      const shown = presentBooking(booking, pro.timezone);
      const waived = booking.fee_waived_at !== null;
      return { ...changed(shown), fee_waived: waived, fee: 0, message: noShowRecordedMessage(shown.customer.name, shown.label, waived) };
    },
  });

export const pauseSeriesOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'pause_series',
    tag: 'bookings',
    title: 'Pause a recurring plan',
    description: 'Cancels some weeks of a recurring plan from one visit on, no fee; then it goes on. Confirm first. Customer NOT messaged.',
    method: 'POST',
    input: fields({ booking_id: idSchema('The first visit skipped.'), weeks: pauseWeeksSchema }, ['booking_id', 'weeks']),
    output: answer({
      series_id: str,
      visits_cancelled: int,
      cancelled: listOf(answer({ booking_id: str, start: str, label: str })),
      resumes: str,
      resumes_label: str,
      fee: num,
      customer_notified: bool,
      message: str,
    }),
    ...REMOVES,
    async handler(input, { principal: pro, now }) {
      const done = await pauseSeries(ctx.db, pro, input, now);
      const zone = done.pro.timezone;
      const resumesLabel = formatLabel(done.resumesAt, zone, now);
      const customer = done.visit.customer_name;
      return {
        series_id: done.series.id,
        visits_cancelled: done.cancelled.length,
        cancelled: done.cancelled.map((v) => ({ booking_id: v.id, start: formatLocalIso(v.starts_at, zone), label: formatLabel(v.starts_at, zone, now) })),
        resumes: formatLocalIso(done.resumesAt, zone),
        resumes_label: resumesLabel,
        fee: 0,
        customer_notified: false,
        message: planPausedMessage(customer, input.weeks, done.cancelled.length, resumesLabel),
      };
    },
  });

export const notifyOnMyWayOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'notify_on_my_way',
    tag: 'bookings',
    title: 'Say the crew is on the way',
    description: "Emails today's job's customer that the crew is on the way, with any ETA; once per job. Confirm first.",
    method: 'POST',
    input: fields({ booking_id: idSchema(), eta_minutes: etaMinutesSchema }, ['booking_id']),
    output: answer({ booking_id: str, queued: bool, sent_at: str, sent_label: str, message: str }),
    ...WRITES,
    idempotent: true,
    openWorld: true,
    async handler(input, { principal: pro, now }) {
      const done = await notifyOnMyWay(ctx.db, pro.id, input, now);
      const zone = done.pro.timezone;
      const sentLabel = formatLabel(done.sentAt, zone, now);
      const customer = done.booking.customer_name;
      return {
        booking_id: done.booking.id,
        queued: done.queued,
        sent_at: formatLocalIso(done.sentAt, zone),
        sent_label: sentLabel,
        message: done.queued ? onMyWaySentMessage(customer, sentLabel, input.eta_minutes ?? null) : onMyWayAlreadySentMessage(customer, sentLabel),
      };
    },
  });
