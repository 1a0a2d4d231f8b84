import {
  MESSAGE,
  andFollowingSchema,
  moveFollowingSchema,
  answer,
  bool,
  cleanerContactSchema,
  customerBookingSchema,
  int,
  listOf,
  seriesInputSchemas,
  seriesSchema,
  str,
  FREE_CANCEL_HOURS,
  bookedByCustomerMessage,
  cancelledByCustomerMessage,
  customerFieldSchemas,
  holdIdSchema,
  idSchema,
  multiLine,
  singleLine,
  jobFieldSchemas,
  laterVisitsCancelled,
  laterVisitsMoved,
  rescheduledByCustomerMessage,
  seriesSummary,
  sharedDetails,
  sharedKeyListsNoBookings,
  withinFreeCancel,
  described,
  fields,
  text,
  number,
  NO_INPUT,
} from '@frontdesk/domain';
import {
  accountBookings,
  bookForCustomer,
  cancelManaged,
  managedBooking,
  manageLink,
  presentSeries,
  renewManageToken,
  rescheduleManaged,
  type CustomerBooked,
} from '@frontdesk/use-cases';
import { READS, WRITES, OVERWRITES, REMOVES } from '@frontdesk/http';
import type { AppContext } from '../context';
import { cleanerIdSchema } from './cleaners';
import { presentCustomerBooking } from './present';
import { defineOperation } from './define';
import { holdClaim } from './holds';

export const MANAGE_TOKEN_PATTERN = '^[A-Za-z0-9_-]{43}$';

const visitIdSchema = idSchema("A series visit's booking_id from booking_status; default the token's own.");

/** What a customer's mails point to: this host's booking pages. */
const mailLinks = (ctx: Pick<AppContext, 'config'>) => ({ bookingUrl: ctx.config.publicUrl, dashboardUrl: `${ctx.config.proDeskUrl}/dashboard` });
/** The customer's page for one booking: the token is the capability, and logs never show it. */
export const manageUrl = (ctx: Pick<AppContext, 'config'>, token: string) => manageLink(mailLinks(ctx), token);
const manageTokenSchema = text({ pattern: MANAGE_TOKEN_PATTERN, description: 'From book_cleaning (43 characters).' });

/** What book_cleaning answers: the booking as the customer sees it, its series, the manage link and what was shared. */
function presentBooked(ctx: Pick<AppContext, 'config'>, b: CustomerBooked) {
  const shown = presentCustomerBooking(b.booking, b.pro);
  const shared = sharedDetails(b.contact);
  return {
    ...shown,
    series: presentSeries(b.series, b.pro.timezone),
    manage_token: b.manageToken,
    manage_url: manageUrl(ctx, b.manageToken),
    shared_with_cleaner: shared,
    message:
      (b.series ? `${seriesSummary(b.series.visits.length, b.series.skipped.length)} ` : '') +
      bookedByCustomerMessage({
        proName: b.pro.name,
        label: shown.label,
        address: shown.address,
        totalCents: b.booking.price_cents,
        customerName: b.contact.name,
        shared,
      }),
  };
}

export const bookCleaning = (ctx: AppContext) =>
  defineOperation({
    name: 'book_cleaning',
    tag: 'bookings',
    title: 'Book a cleaning',
    description:
      'Books the cleaner at a start from find_cleaners or available_times, at the firm price. Confirm once (cleaner, time, address, price) unless the user already said to book. Fill customer details from what you know (or the X-User-* headers); ask only for what is missing, in one message, and tell the user what was shared. Notes and access details are optional: never hold a booking back for them. Keep the manage_token: the only way to check or cancel; give the user the manage_url.',
    method: 'POST',
    instruction:
      'Confirm a booking with the user once (cleaner, time, address, price). If the user already said to book, book without asking again. Pass the price they saw as expected_total. Keep the manage_token from book_cleaning: it is the only way to check (booking_status) or cancel (cancel_booking) that booking.',
    input: fields(
      {
        cleaner_id: cleanerIdSchema,
        start: singleLine({ minLength: 10, maxLength: 40, description: 'From the open times, unchanged.' }),
        ...jobFieldSchemas,
        ...customerFieldSchemas,
        customer_name: described(customerFieldSchemas.customer_name, 'Or send X-User-Name.'),
        access_details: multiLine({ maxLength: 500, description: 'Door code, key, parking; optional.' }),
        expected_total: number({ minimum: 0, maximum: 100000, description: 'The total the user saw; refused if the price changed.' }),
        ...seriesInputSchemas,
        hold_id: described(holdIdSchema, 'From hold_time: books its start at its total.'),
      },
      ['cleaner_id', 'start', 'bedrooms', 'bathrooms', 'address', 'zip'],
    ),
    output: answer({
      ...customerBookingSchema.properties,
      series: seriesSchema,
      manage_token: str,
      manage_url: str,
      shared_with_cleaner: listOf(str),
      message: str,
    }),
    ...WRITES,
    // Mails the customer and the business owner.
    openWorld: true,
    async handler(input, { principal, clientName, now }) {
      return presentBooked(
        ctx,
        await bookForCustomer(
          ctx.db,
          {
            user: principal.user,
            accountEmail: principal.email,
            clientName,
            mail: mailLinks(ctx),
            hold: input.hold_id === undefined ? undefined : holdClaim(principal, input.hold_id),
          },
          input,
          now,
        ),
      );
    },
    // The manage_token is stored only as a hash, so a retry cannot be shown the lost one:
    // it gets a fresh token, and the lost one stops working.
    retry: {
      keep: ({ manage_token: _secret, manage_url: _link, ...rest }: { manage_token?: string; manage_url?: string }) => rest,
      async replay(kept) {
        const token = await renewManageToken(ctx.db, (kept as { booking_id: string }).booking_id, { links: mailLinks(ctx), now: ctx.clock() });
        return { ...kept, manage_token: token, manage_url: manageUrl(ctx, token) };
      },
    },
  });

export const cancelBookingOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'cancel_booking',
    tag: 'bookings',
    title: 'Cancel a booking',
    description: `Cancels a booking (for a series, one visit). Confirm with the user first. Free until ${FREE_CANCEL_HOURS} hours before the start; closer, the cleaner may charge under their own policy: tell the user.`,
    method: 'POST',
    instruction: `Confirm a cancellation with the user first; within ${FREE_CANCEL_HOURS} hours of the start the cleaner may charge under their own policy.`,
    input: fields({ manage_token: manageTokenSchema, visit_id: visitIdSchema, and_following: andFollowingSchema }, ['manage_token']),
    output: answer({
      booking_id: str,
      status: customerBookingSchema.properties.status,
      cleaner: cleanerContactSchema,
      start: str,
      label: str,
      within_24_hours: bool,
      visits_cancelled: int,
      message: str,
    }),
    ...REMOVES,
    // Mails the customer and the business owner.
    openWorld: true,
    async handler(input, { now }) {
      const { booking, pro, followingCancelled } = await cancelManaged(
        ctx.db,
        { manageToken: input.manage_token, visitId: input.visit_id, andFollowing: input.and_following, mail: mailLinks(ctx) },
        now,
      );
      const shown = presentCustomerBooking(booking, pro);
      const late = !withinFreeCancel(booking.starts_at, now);
      return {
        booking_id: shown.booking_id,
        status: shown.status,
        cleaner: shown.cleaner,
        start: shown.start,
        label: shown.label,
        within_24_hours: late,
        visits_cancelled: 1 + followingCancelled,
        message: `${cancelledByCustomerMessage(pro.name, shown.label, late)}${laterVisitsCancelled(followingCancelled)}`,
      };
    },
  });

export const rescheduleBookingOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'reschedule_booking',
    tag: 'bookings',
    title: 'Move a booking to another time',
    description: `Moves a booking to a new start from available_times, all or nothing; same price. Confirm with the user first. Within ${FREE_CANCEL_HOURS} hours of the old start the cleaner may charge under their own policy: tell the user.`,
    method: 'POST',
    input: fields(
      {
        manage_token: manageTokenSchema,
        start: singleLine({ minLength: 10, maxLength: 40, description: 'From available_times, unchanged.' }),
        visit_id: visitIdSchema,
        and_following: moveFollowingSchema,
      },
      ['manage_token', 'start'],
    ),
    output: answer({ ...customerBookingSchema.properties, previous_start: str, previous_label: str, visits_moved: int, within_24_hours: bool, message: str }),
    ...OVERWRITES,
    // Mails the customer and the business owner.
    openWorld: true,
    idempotent: true,
    async handler(input, { now }) {
      const { booking, previous, pro, followingMoved } = await rescheduleManaged(
        ctx.db,
        { manageToken: input.manage_token, visitId: input.visit_id, start: input.start, andFollowing: input.and_following, mail: mailLinks(ctx) },
        now,
      );
      const shown = presentCustomerBooking(booking, pro);
      const before = presentCustomerBooking(previous, pro);
      const late = !withinFreeCancel(previous.starts_at, now);
      return {
        ...shown,
        previous_start: before.start,
        previous_label: before.label,
        visits_moved: 1 + followingMoved,
        within_24_hours: late,
        message: `${rescheduledByCustomerMessage(pro.name, before.label, shown.label, late)}${laterVisitsMoved(followingMoved)}`,
      };
    },
  });

export const bookingStatus = (ctx: AppContext) =>
  defineOperation({
    name: 'booking_status',
    tag: 'bookings',
    title: 'Check a booking',
    description:
      "A booking's status and details, its manage page link and, for a series, its upcoming visits (series_visits) and whether it has ended. The way to check a booking with the shared public key.",
    method: 'GET',
    input: fields({ manage_token: manageTokenSchema }, ['manage_token']),
    output: answer({
      ...customerBookingSchema.properties,
      manage_url: str,
      series_visits: listOf(answer({ booking_id: str, status: customerBookingSchema.properties.status, start: str, label: str })),
      series_ended: bool,
    }),
    ...READS,
    async handler(input, { now }) {
      const { booking, pro, visits, seriesEnded } = await managedBooking(ctx.db, input.manage_token, now);
      return {
        ...presentCustomerBooking(booking, pro),
        manage_url: manageUrl(ctx, input.manage_token),
        series_visits: visits.map((v) => {
          const shown = presentCustomerBooking(v, pro);
          return { booking_id: shown.booking_id, status: shown.status, start: shown.start, label: shown.label };
        }),
        series_ended: seriesEnded,
      };
    },
  });

export const myBookings = (ctx: AppContext) =>
  defineOperation({
    name: 'my_bookings',
    tag: 'bookings',
    title: "List the user's bookings",
    description: "The user's bookings, newest first; with the shared public key none: use booking_status with each manage_token.",
    method: 'GET',
    input: NO_INPUT,
    output: answer({ count: int, bookings: listOf(customerBookingSchema), ...MESSAGE }, ['message']),
    ...READS,
    async handler(_input, { principal }) {
      if (!principal.email) {
        return { count: 0, bookings: [], message: sharedKeyListsNoBookings };
      }
      const rows = await accountBookings(ctx.db, principal.email);
      return {
        count: rows.length,
        bookings: rows.map((r) =>
          presentCustomerBooking(r, {
            id: r.pro_id,
            name: r.pro_name,
            timezone: r.pro_timezone,
            phone: r.pro_phone,
            email: r.pro_email,
            website: r.pro_website,
          }),
        ),
      };
    },
  });
