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
} from '@frontdesk/domain';
import {
  BOOK_HOST_FEE_CENTS,
  FREE_CANCEL_HOURS,
  bookedByCustomerMessage,
  cancelledByCustomerMessage,
  customerDetails,
  customerNameMissing,
  customerReachMissing,
  noBookingWithTokenCopied,
  noCleanerToFind,
  noSuchVisit,
  notServedZip,
  rescheduledByCustomerMessage,
  seriesSummary,
  customerFieldSchemas,
  fromUsd,
  jobFieldSchemas,
  normalizeJob,
  parseStart,
  sharedKeyListsNoBookings,
  type JobInput,
} from '@frontdesk/domain';
import { bookingByToken, bookingsOfAccount, findBooking, getPro, hashSecret, newToken, replaceManageToken, upcomingVisits } from '@frontdesk/db';
import { cancelBooking, createBooking, presentSeries, rescheduleBooking } from '@frontdesk/use-cases';
import { NO_INPUT, defineOperation } from '@frontdesk/http';
import type { Customer } from '../auth';
import type { AppContext } from '../context';
import { cleanerIdSchema } from './cleaners';
import { presentCustomerBooking } from './present';

export const MANAGE_TOKEN_PATTERN = '^[A-Za-z0-9_-]{43}$';

const visitIdSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: "For a series: the visit to act on (booking_id from booking_status's series_visits); default the visit the manage_token opens.",
} as const;

/**
 * The booking a customer's call acts on: the one the manage token opens, or another visit of
 * its series named by visit_id. A visit of any other booking is not found.
 */
async function visitToActOn(ctx: AppContext, token: string, visitId: string | undefined, found?: NonNullable<Awaited<ReturnType<typeof bookingByToken>>>) {
  if (visitId === undefined && !found) return { manageTokenHash: hashSecret(token) };
  const opened = found ?? (await bookingByToken(ctx.db, hashSecret(token)));
  if (!opened) throw noBookingWithTokenCopied();
  if (visitId === undefined) return { id: opened.booking.id, proId: opened.pro.id };
  const visit = await findBooking(ctx.db, { id: visitId, proId: opened.pro.id });
  if (!visit || visit.series_id === null || visit.series_id !== opened.booking.series_id) throw noSuchVisit(visitId);
  return { id: visit.id, proId: opened.pro.id };
}

/** The customer's page for one booking: the token is the capability, and logs never show it. */
export const manageUrl = (ctx: Pick<AppContext, 'config'>, token: string) => `${ctx.config.publicUrl}/manage/${token}`;
const manageTokenSchema = {
  type: 'string',
  pattern: MANAGE_TOKEN_PATTERN,
  description: 'The manage_token book_cleaning returned (43 characters).',
} as const;

interface BookInput extends JobInput {
  cleaner_id: string;
  start: string;
  customer_name?: string;
  customer_phone?: string;
  customer_email?: string;
  address: string;
  zip: string;
  notes?: string;
  access_details?: string;
  expected_total?: number;
  skip_conflicts?: boolean;
}

export const bookCleaning = (ctx: AppContext) =>
  defineOperation<Customer, BookInput>({
    name: 'book_cleaning',
    title: 'Book a cleaning',
    description:
      'Books the cleaner for a start from find_cleaners or available_times at the firm price. Confirm once with the user (cleaner, time, address, price) unless they already said to book. Name and phone or email come from the customer_ fields or the X-User-Name / X-User-Phone / X-User-Email headers; fill them from what you know and ask only for what is missing. Notes and access details are optional: never hold a booking back for them. Pass expected_total (the price the user saw) so a changed price is refused rather than charged. Keep the returned manage_token: it is the only way to check or cancel; give the user the manage_url, their page for it.',
    method: 'POST',
    input: {
      type: 'object',
      properties: {
        cleaner_id: cleanerIdSchema,
        start: { type: 'string', minLength: 10, maxLength: 40, description: 'The chosen start, unchanged from the open times.' },
        ...jobFieldSchemas,
        ...customerFieldSchemas,
        customer_name: { ...customerFieldSchemas.customer_name, description: "The customer's name (or send X-User-Name)." },
        access_details: { type: 'string', maxLength: 500, description: 'How to get in: door code, key, parking (optional).' },
        expected_total: { type: 'number', minimum: 0, maximum: 100000, description: 'The total in USD the user was shown; refused if the price has changed.' },
        ...seriesInputSchemas,
      },
      required: ['cleaner_id', 'start', 'bedrooms', 'bathrooms', 'address', 'zip'],
      additionalProperties: false,
    },
    output: answer({
      ...customerBookingSchema.properties,
      series: seriesSchema,
      manage_token: str,
      manage_url: str,
      shared_with_cleaner: listOf(str),
      message: str,
    }),
    readOnly: false,
    scope: 'write',
    async handler(input, { principal, clientName, now }) {
      const user = principal.user;
      const name = input.customer_name ?? user.name;
      const phone = input.customer_phone ?? user.phone ?? undefined;
      const email = input.customer_email ?? user.email ?? principal.email ?? undefined;
      if (!name) throw customerNameMissing();
      if (!phone && !email) throw customerReachMissing();
      const customer = customerDetails({ customer_name: name, customer_phone: phone, customer_email: email, address: input.address, notes: input.notes });
      const pro = await getPro(ctx.db, input.cleaner_id);
      if (!pro) throw noCleanerToFind(input.cleaner_id);
      if (!pro.service_zips.includes(input.zip)) throw notServedZip(pro.name, input.zip);
      const token = newToken();
      const { booking, series } = await createBooking(ctx.db, {
        proId: pro.id,
        job: normalizeJob(input),
        start: parseStart(input.start, pro.timezone),
        customer: { name: customer.name, phone: customer.phone, email: customer.email },
        address: customer.address,
        zip: input.zip,
        notes: customer.notes,
        accessDetails: input.access_details?.trim() || null,
        channel: 'book',
        clientName: clientName?.slice(0, 100) ?? null,
        leadId: null,
        feeCents: BOOK_HOST_FEE_CENTS,
        manageTokenHash: hashSecret(token),
        accountEmail: principal.email,
        expectedTotalCents: input.expected_total === undefined ? null : fromUsd(input.expected_total),
        skipConflicts: input.skip_conflicts ?? false,
        now,
      });
      const shown = presentCustomerBooking(booking, pro);
      const shared = ['name', customer.phone ? 'phone' : null, customer.email ? 'email' : null, 'address'].filter((f): f is string => f !== null);
      return {
        ...shown,
        series: presentSeries(series, pro.timezone),
        manage_token: token,
        manage_url: manageUrl(ctx, token),
        shared_with_cleaner: shared,
        message:
          (series ? `${seriesSummary(series.visits.length, series.skipped.length)} ` : '') +
          bookedByCustomerMessage({
            proName: pro.name,
            label: shown.label,
            address: shown.address,
            totalCents: booking.price_cents,
            customerName: customer.name,
            shared,
          }),
      };
    },
    // The manage_token is stored only as a hash, so a retry cannot be shown the lost one:
    // it gets a fresh token, and the lost one stops working.
    retry: {
      keep: ({ manage_token: _secret, manage_url: _link, ...rest }: { manage_token?: string; manage_url?: string }) => rest,
      async replay(kept) {
        const token = newToken();
        await replaceManageToken(ctx.db, (kept as { booking_id: string }).booking_id, hashSecret(token));
        return { ...kept, manage_token: token, manage_url: manageUrl(ctx, token) };
      },
    },
  });

export const cancelBookingOperation = (ctx: AppContext) =>
  defineOperation<Customer, { manage_token: string; visit_id?: string; and_following?: boolean }>({
    name: 'cancel_booking',
    title: 'Cancel a booking',
    description:
      'Cancels a booking with the manage_token from book_cleaning (for a series, one visit: the first, or the one named by visit_id; with and_following, that visit and every later one). Confirm with the user first. Free until 24 hours before the start; closer than that it still cancels, but the cleaner may charge under their own policy, and the answer says so.',
    method: 'POST',
    input: {
      type: 'object',
      properties: { manage_token: manageTokenSchema, visit_id: visitIdSchema, and_following: andFollowingSchema },
      required: ['manage_token'],
      additionalProperties: false,
    },
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
    readOnly: false,
    destructive: true,
    idempotent: false,
    scope: 'write',
    async handler(input, { now }) {
      const { booking, pro, followingCancelled } = await cancelBooking(ctx.db, await visitToActOn(ctx, input.manage_token, input.visit_id), 'customer', now, {
        andFollowing: input.and_following,
      });
      const shown = presentCustomerBooking(booking, pro);
      const late = booking.starts_at.getTime() - now.getTime() < FREE_CANCEL_HOURS * 60 * 60 * 1000;
      return {
        booking_id: shown.booking_id,
        status: shown.status,
        cleaner: shown.cleaner,
        start: shown.start,
        label: shown.label,
        within_24_hours: late,
        visits_cancelled: 1 + followingCancelled,
        message: `${cancelledByCustomerMessage(pro.name, shown.label, late)}${followingCancelled ? ` The ${followingCancelled} later visits are cancelled too; the series has ended.` : ''}`,
      };
    },
  });

export const rescheduleBookingOperation = (ctx: AppContext) =>
  defineOperation<Customer, { manage_token: string; visit_id?: string; start: string; and_following?: boolean }>({
    name: 'reschedule_booking',
    title: 'Move a booking to another time',
    description:
      'Moves a booking (its manage_token from book_cleaning) to a new start from available_times, in one step: the new time is taken and the old one freed, or nothing changes; the price stays the same. Confirm with the user first. Within 24 hours of the old start it still moves, but the cleaner may charge under their own policy, and the answer says so.',
    method: 'POST',
    input: {
      type: 'object',
      properties: {
        manage_token: manageTokenSchema,
        start: { type: 'string', minLength: 10, maxLength: 40, description: 'The new start, unchanged from available_times.' },
        visit_id: visitIdSchema,
        and_following: moveFollowingSchema,
      },
      required: ['manage_token', 'start'],
      additionalProperties: false,
    },
    output: answer({ ...customerBookingSchema.properties, previous_start: str, previous_label: str, visits_moved: int, within_24_hours: bool, message: str }),
    readOnly: false,
    idempotent: true,
    scope: 'write',
    async handler(input, { now }) {
      // The token is looked up once here, for the refusal a customer with a mistyped token reads.
      const found = await bookingByToken(ctx.db, hashSecret(input.manage_token));
      if (!found) throw noBookingWithTokenCopied();
      const { booking, previous, pro, followingMoved } = await rescheduleBooking(
        ctx.db,
        await visitToActOn(ctx, input.manage_token, input.visit_id, found),
        input.start,
        'customer',
        now,
        {
          andFollowing: input.and_following,
        },
      );
      const shown = presentCustomerBooking(booking, pro);
      const before = presentCustomerBooking(previous, pro);
      const late = previous.starts_at.getTime() - now.getTime() < FREE_CANCEL_HOURS * 60 * 60 * 1000;
      return {
        ...shown,
        previous_start: before.start,
        previous_label: before.label,
        visits_moved: 1 + followingMoved,
        within_24_hours: late,
        message: `${rescheduledByCustomerMessage(pro.name, before.label, shown.label, late)}${followingMoved ? ` The ${followingMoved} later visits moved with it.` : ''}`,
      };
    },
  });

export const bookingStatus = (ctx: AppContext) =>
  defineOperation<Customer, { manage_token: string }>({
    name: 'booking_status',
    title: 'Check a booking',
    description:
      'Shows the status and details of a booking from its manage_token, the manage page link the customer can open to see, move, cancel or add it to a calendar, and for a series its upcoming visits (series_visits; pass one as visit_id to act on it alone). The way to check a booking with the shared public key.',
    method: 'GET',
    input: { type: 'object', properties: { manage_token: manageTokenSchema }, required: ['manage_token'], additionalProperties: false },
    output: answer({
      ...customerBookingSchema.properties,
      manage_url: str,
      series_visits: listOf(answer({ booking_id: str, status: customerBookingSchema.properties.status, start: str, label: str })),
    }),
    readOnly: true,
    idempotent: true,
    scope: 'read',
    async handler(input, { now }) {
      const found = await bookingByToken(ctx.db, hashSecret(input.manage_token));
      if (!found) throw noBookingWithTokenCopied();
      const visits = found.booking.series_id ? await upcomingVisits(ctx.db, found.booking.series_id, now) : [];
      return {
        ...presentCustomerBooking(found.booking, found.pro),
        manage_url: manageUrl(ctx, input.manage_token),
        series_visits: visits.map((v) => {
          const shown = presentCustomerBooking(v, found.pro);
          return { booking_id: shown.booking_id, status: shown.status, start: shown.start, label: shown.label };
        }),
      };
    },
  });

export const myBookings = (ctx: AppContext) =>
  defineOperation<Customer, Record<string, never>>({
    name: 'my_bookings',
    title: "List the user's bookings",
    description:
      "Lists the user's bookings, newest first. Needs the user's own credential (personal key or sign-in); with the shared public key it lists none: use booking_status with each manage_token instead.",
    method: 'GET',
    input: NO_INPUT,
    output: answer({ count: int, bookings: listOf(customerBookingSchema), ...MESSAGE }, ['message']),
    readOnly: true,
    idempotent: true,
    scope: 'read',
    async handler(_input, { principal }) {
      if (!principal.email) {
        return { count: 0, bookings: [], message: sharedKeyListsNoBookings };
      }
      const rows = await bookingsOfAccount(ctx.db, principal.email);
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
