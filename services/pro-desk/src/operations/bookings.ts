import {
  andFollowingSchema,
  moveFollowingSchema,
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
} from '@frontdesk/domain';
import {
  BOOKING_FEE_TEXT,
  bookedByProMessage,
  cancelledByProMessage,
  laterVisitsCancelled,
  laterVisitsMoved,
  noShowRecordedMessage,
  rescheduledByProMessage,
  seriesSummary,
} from '@frontdesk/domain';
import { customerFieldSchemas, jobFieldSchemas } from '@frontdesk/domain';
import type { Pro } from '@frontdesk/db';
import {
  bookJob as bookJobOnSchedule,
  cancelJob as cancelJobOnSchedule,
  presentBooking,
  presentSeries,
  reportNoShow,
  rescheduleJob as rescheduleJobOnSchedule,
  type JobBookingInput,
} from '@frontdesk/use-cases';
import { defineOperation, WRITES, OVERWRITES, REMOVES } from '@frontdesk/http';
import type { AppContext } from '../context';

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

const idSchema = (what: string) => ({ type: 'string', minLength: 1, maxLength: 64, description: what });

export const bookJob = (ctx: AppContext) =>
  defineOperation<Pro, JobBookingInput>({
    name: 'book_job',
    title: 'Book a job on your schedule',
    description:
      "Books a cleaning on this business's own schedule at a start from open_times, priced from its own list (no fee). Needs the customer's name, phone or email, address and ZIP. Confirm the details with the pro first. It cannot book other cleaners. The customer is not messaged.",
    method: 'POST',
    input: {
      type: 'object',
      properties: {
        lead_id: idSchema('Links the booking to a lead from log_lead; the lead becomes booked.'),
        ...jobFieldSchemas,
        start: {
          type: 'string',
          minLength: 10,
          maxLength: 40,
          description: 'The chosen start from open_times, e.g. 2026-11-24T09:00:00-05:00; without an offset it is local time.',
        },
        ...customerFieldSchemas,
        ...seriesInputSchemas,
        crew_id: idSchema('The crew to do it, from my_business; left out, a free crew is picked (the one with the fewest booked minutes that day).'),
      },
      required: ['bedrooms', 'bathrooms', 'start', 'customer_name', 'address', 'zip'],
      additionalProperties: false,
    },
    output: answer({ ...proBookingSchema.properties, series: seriesSchema, message: str }),
    ...WRITES,
    async handler(input, { principal: pro, clientName, now }) {
      const { booking, series } = await bookJobOnSchedule(ctx.db, pro, input, { clientName, now });
      const shown = presentBooking(booking, pro.timezone);
      return {
        ...shown,
        series: presentSeries(series, pro.timezone),
        message: `${bookedByProMessage(shown.customer.name, shown.label, booking.price_cents)}${series ? ` ${seriesSummary(series.visits.length, series.skipped.length)}` : ''}`,
      };
    },
  });

export const cancelJob = (ctx: AppContext) =>
  defineOperation<Pro, { booking_id: string; and_following?: boolean }>({
    name: 'cancel_job',
    title: 'Cancel a job',
    description:
      "Cancels an upcoming job on this business's schedule (booking_id from schedule or book_job). Confirm with the pro before calling. No fee is charged. The service does NOT message the customer: tell the pro to inform them.",
    method: 'POST',
    input: {
      type: 'object',
      properties: { booking_id: idSchema('The booking to cancel.'), and_following: andFollowingSchema },
      required: ['booking_id'],
      additionalProperties: false,
    },
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

const startSchema = (what: string) => ({
  type: 'string',
  minLength: 10,
  maxLength: 40,
  description: `${what} from open_times, e.g. 2026-11-24T09:00:00-05:00; without an offset it is local time.`,
});

export const rescheduleJob = (ctx: AppContext) =>
  defineOperation<Pro, { booking_id: string; start: string; and_following?: boolean }>({
    name: 'reschedule_job',
    title: 'Move a job to another time',
    description:
      'Moves an upcoming job (booking_id from schedule) to a new start from open_times, in one step: the new time is taken and the old one freed, or nothing changes. The price stays as booked. Confirm with the pro first. The service does NOT message the customer: tell the pro to inform them.',
    method: 'POST',
    input: {
      type: 'object',
      properties: { booking_id: idSchema('The booking to move.'), start: startSchema('The new start'), and_following: moveFollowingSchema },
      required: ['booking_id', 'start'],
      additionalProperties: false,
    },
    output: answer({ ...changedBooking, previous_start: str, previous_label: str, visits_moved: int, customer_notified: bool, message: str }),
    ...OVERWRITES,
    idempotent: true,
    async handler(input, { principal: pro, now }) {
      const { booking, previous, followingMoved } = await rescheduleJobOnSchedule(ctx.db, pro, input, now);
      const shown = presentBooking(booking, pro.timezone);
      const before = presentBooking(previous, pro.timezone);
      return {
        ...changed(shown),
        previous_start: before.start,
        previous_label: before.label,
        visits_moved: 1 + followingMoved,
        customer_notified: false,
        message: `${rescheduledByProMessage(shown.customer.name, before.label, shown.label, reachOf(shown))}${laterVisitsMoved(followingMoved)}`,
      };
    },
  });

export const reportNoShowOperation = (ctx: AppContext) =>
  defineOperation<Pro, { booking_id: string }>({
    name: 'report_no_show',
    title: 'Report a customer no-show',
    description: `Reports that the customer neither showed up nor cancelled: only after the job's start, only for a live booking. The ${BOOKING_FEE_TEXT} fee of a booking a customer made through the booking service is waived; bookings the business made have no fee. Confirm with the pro first.`,
    method: 'POST',
    input: {
      type: 'object',
      properties: { booking_id: idSchema('The booking the customer missed.') },
      required: ['booking_id'],
      additionalProperties: false,
    },
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
