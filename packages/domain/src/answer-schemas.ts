import { CLEAN_TYPES, FREQUENCIES } from './job';
import { BAD_LEAD_REASONS, LEAD_SOURCES, LEAD_STATUSES } from './leads';
import { Type } from '@sinclair/typebox';
import { MAX_PAUSE_WEEKS } from './series';
import { ON_MY_WAY_ETA_MINUTES } from './policy';
import { answer, bool, boolean, described, int, integer, listOf, nullable, num, omitted, oneOf, str, type Static, type TSchema } from './schema';

/**
 * JSON Schemas of the answers, built from the schema blocks (schema.ts) so each operation's
 * output reads like its answer, and its type is inferred from it.
 */
/** A message present only when there is something to say (an empty list, a reset). */
export const MESSAGE = { message: str };

export const jobSchema = answer({
  bedrooms: int,
  bathrooms: num,
  clean_type: oneOf(CLEAN_TYPES),
  sqft: nullable(int),
  frequency: oneOf(FREQUENCIES),
  add_ons: listOf(str),
  pets: bool,
});
/** A lead's job: the size may not be known yet. */
export const leadJobSchema = answer({ ...jobSchema.properties, bedrooms: nullable(int), bathrooms: nullable(num) });

export const lineItemSchema = answer({ label: str, amount: num });

export const quoteSchema = answer({
  currency: oneOf(['USD']),
  total: num,
  line_items: listOf(lineItemSchema),
  estimated_hours: num,
  crew_size: int,
  duration_minutes: int,
  minimum_applied: bool,
  recurring: nullable(answer({ frequency: oneOf(FREQUENCIES), discount_pct: num, visit_total: num, first_visit: oneOf(['discounted', 'full_price']) })),
  job: jobSchema,
  summary: str,
});

export const openTimeSchema = answer({ start: str, end: str, label: str });
/** One local day of open starts: its label once, then each start as book_* takes it (its date is the first ten characters). */
export const openDaySchema = answer({ label: str, starts: listOf(str) });
/**
 * The end of every open-times answer: how many starts, the starts by day, and a message when
 * there are none. A start's end is its start plus the job's duration_minutes.
 */
export const openTimesList = { count: int, open_times: listOf(openDaySchema), ...MESSAGE };

export const customerSchema = answer({ name: str, phone: nullable(str), email: nullable(str) });

/** What pro and customer both see of a booking. */
export const bookingDetailsProperties = {
  booking_id: str,
  /** The recurring plan a visit belongs to, or null for a one-time cleaning. */
  series_id: nullable(str),
  status: oneOf(['booked', 'cancelled', 'no_show']),
  start: str,
  end: str,
  label: str,
  /** The crew doing the job. */
  crew_id: str,
  crew_name: str,
  customer: customerSchema,
  address: str,
  zip: str,
  notes: nullable(str),
  access_details: nullable(str),
  job: jobSchema,
  total: num,
  line_items: listOf(lineItemSchema),
  estimated_hours: num,
  cancelled_at: nullable(str),
  cancelled_by: nullable(oneOf(['pro', 'customer'])),
  /** A turnover clean's property (list_properties); null for every other job. */
  property_id: nullable(str),
};

/** A booking as the pro sees it. */
export const proBookingSchema = answer({
  ...bookingDetailsProperties,
  channel: oneOf(['pro', 'book']),
  client_name: nullable(str),
  lead_id: nullable(str),
  fee: num,
  created_at: str,
});

/** A hold as both hosts show it: the time kept, on which crew, until when, for the job at its firm total. */
export const holdSchema = answer({
  hold_id: str,
  start: str,
  end: str,
  label: str,
  expires_at: str,
  crew_id: str,
  crew_name: str,
  lead_id: nullable(str),
  job: jobSchema,
  total: num,
  line_items: listOf(lineItemSchema),
});

/** What release_hold answers on both hosts: the hold, whether it was released now or already used, and a sentence. */
export const releasedHoldSchema = answer({ hold_id: str, status: oneOf(['released', 'used']), message: str });

export const cleanerContactSchema = answer({ cleaner_id: str, name: str, phone: nullable(str), email: nullable(str), website: nullable(str) });

/** A booking as the customer sees it: the cleaner instead of the fee. */
export const customerBookingSchema = answer({
  booking_id: str,
  status: bookingDetailsProperties.status,
  cleaner: cleanerContactSchema,
  timezone: str,
  ...omitted(bookingDetailsProperties, ['booking_id', 'status']),
  booked_at: str,
});

export const leadSchema = answer({
  lead_id: str,
  source: oneOf(LEAD_SOURCES),
  platform: bool,
  lead_ref: nullable(str),
  customer_first_name: nullable(str),
  contact: nullable(str),
  zip: nullable(str),
  lead_cost: num,
  job: leadJobSchema,
  quote_total: nullable(num),
  status: oneOf(LEAD_STATUSES),
  contacted: bool,
  follow_ups_sent: int,
  last_follow_up_at: nullable(str),
  next_follow_up_due: nullable(str),
  notes: nullable(str),
  flagged: nullable(answer({ reason: oneOf(BAD_LEAD_REASONS), evidence: listOf(str), flagged_at: nullable(str) })),
  logged_at: str,
});

export const checkSchema = answer({
  kind: oneOf(['website_ownership', 'marketplace_profile']),
  subject: str,
  passed: bool,
  rating: nullable(num),
  reviews: nullable(int),
  checked_on: str,
  summary: str,
});

const perSource = answer({ source: oneOf(LEAD_SOURCES), leads: int, spend: num, booked: int, lost: int, open: int, cost_per_booked_job: nullable(num) });

export const pipelineSchema = answer({
  month: str,
  timezone: str,
  leads: answer({ total: int, spend: num, booked: int, lost: int, open: int, cost_per_booked_job: nullable(num), by_source: listOf(perSource) }),
  possible_lead_credits: answer({
    count: int,
    amount: num,
    leads: listOf(
      answer({ lead_id: str, source: oneOf(LEAD_SOURCES), lead_ref: nullable(str), amount: num, reason: oneOf(BAD_LEAD_REASONS), reason_text: str }),
    ),
  }),
  customers_brought_by_service: answer({ bookings: int, value: num, cancelled: int, fees_waived_for_no_shows: int, fee_per_booking: num, fees_due: num }),
  jobs_booked: answer({
    total: int,
    value: num,
    by_business: int,
    by_customers_through_service: int,
    cancelled: int,
    no_shows: int,
    by_crew: listOf(answer({ crew_id: str, crew_name: str, jobs: int, value: num })),
  }),
});

/** A client as list_clients shows one: who, how to reach them, their jobs at a glance. */
export const clientLineSchema = answer({
  client_id: str,
  name: nullable(str),
  phone: nullable(str),
  email: nullable(str),
  address: nullable(str),
  zip: nullable(str),
  booked_jobs: described(int, 'Visits booked, past and upcoming (cancelled and no-shows aside).'),
  next_visit: nullable(str),
  last_visit: nullable(str),
});

/** One visit of a client, as client_history lists it: enough to book the same job again. */
export const clientVisitSchema = answer({
  booking_id: str,
  series_id: nullable(str),
  status: oneOf(['booked', 'cancelled', 'no_show']),
  start: str,
  label: str,
  crew_name: str,
  address: str,
  zip: str,
  job: jobSchema,
  total: num,
});

/** A client with the owner's notes about them. */
export const clientSchema = answer({ ...omitted(clientLineSchema.properties, ['booked_jobs', 'next_visit', 'last_visit']), notes: nullable(str) });

/** A series a booking started: its visits (the first included) and the dates it could not hold. */
export const seriesSchema = nullable(
  answer({
    series_id: str,
    frequency: oneOf(['weekly', 'biweekly', 'monthly']),
    visits: listOf(answer({ booking_id: str, start: str, label: str, total: num, crew_id: str, crew_name: str })),
    skipped: listOf(answer({ start: str, label: str, reason: str })),
  }),
);

/** Inputs shared by book_job and book_cleaning, cancel_job and cancel_booking for series. */
export const seriesInputSchemas = {
  skip_conflicts: boolean({ description: 'Recurring: book the open visits, list the rest.' }),
};
export const andFollowingSchema = boolean({ description: 'Also every later visit of the series.' });
export const moveFollowingSchema = boolean({ description: 'Also every later visit of the series.' });
export const notifyCustomerSchema = boolean({ description: "Email the customer the new time (never a platform lead's)." });
/** How many weeks pause_series skips from its visit on. */
export const pauseWeeksSchema = integer({ minimum: 1, maximum: MAX_PAUSE_WEEKS, description: 'Weeks skipped from this visit on.' });
/** When notify_on_my_way's crew expects to arrive, in minutes from now. */
export const etaMinutesSchema = integer({ minimum: ON_MY_WAY_ETA_MINUTES.min, maximum: ON_MY_WAY_ETA_MINUTES.max, description: 'Minutes until arrival.' });

/*
 * The updates feed. Every event carries seq, kind, at and message; the rest depends on its
 * kind. Each kind's own fields are declared here, once: the `updates` answer is one schema
 * per kind (a union over `kind`), and a test makes every kind the feed writes match its
 * schema exactly. A new kind is one more entry in EVENT_FIELDS.
 */
const CANCELLED_BY = oneOf(['pro', 'customer']);
const crewFields = { crew_id: str, crew_name: str };

export const EVENT_FIELDS = {
  'booking.created': {
    booking_id: str,
    start: str,
    label: str,
    customer_name: str,
    channel: described(oneOf(['pro', 'book']), 'pro: booked by the business (book_job); book: by a customer on the booking site.'),
    client_name: described(nullable(str), 'The assistant that made the booking (X-Client-Name), if it gave one.'),
    total: num,
    ...crewFields,
  },
  'booking.cancelled': { booking_id: str, start: str, label: str, customer_name: str, cancelled_by: CANCELLED_BY, ...crewFields },
  'booking.no_show': {
    booking_id: str,
    start: str,
    label: str,
    customer_name: str,
    fee_waived: described(bool, "True when the customer's booking fee is waived for the no-show."),
    ...crewFields,
  },
  'booking.rescheduled': {
    booking_id: str,
    series_id: nullable(str),
    from: str,
    to: str,
    label: described(str, 'The new start, as a person reads it.'),
    and_following: described(bool, 'True when the later visits of the series moved with this one.'),
    visits_moved: described(int, 'How many visits moved: 1, or more with and_following.'),
    customer_name: str,
    rescheduled_by: CANCELLED_BY,
    ...crewFields,
  },
  'booking.assigned': {
    booking_id: str,
    series_id: nullable(str),
    start: str,
    label: str,
    customer_name: str,
    from_crew_id: str,
    from_crew_name: str,
    ...crewFields,
  },
  'series.created': {
    series_id: str,
    frequency: oneOf(['weekly', 'biweekly', 'monthly']),
    visits: described(int, 'Visits booked so far (the horizon rolls forward on its own).'),
    first_start: str,
    skipped: described(listOf(str), 'The visits that could not be booked, as a person reads them.'),
    customer_name: str,
    ...crewFields,
  },
  'series.cancelled': { series_id: str, from: str, visits_cancelled: int, cancelled_by: CANCELLED_BY, ...crewFields },
  'series.visit_skipped': {
    series_id: str,
    start: described(str, 'The visit that could not be booked, as a person reads it.'),
    customer_name: str,
    reason: str,
  },
  'follow_up.due': {
    lead_id: str,
    source: oneOf(LEAD_SOURCES),
    lead_ref: nullable(str),
    follow_up_number: int,
    due_at: str,
  },
  'jobs.today': {
    date: str,
    count: int,
    jobs: listOf(answer({ booking_id: str, start: str, customer_name: str, address: str, ...crewFields })),
  },
  'reminder.sent': {
    booking_id: str,
    start: str,
    label: str,
    customer_name: str,
    hours_before: described(int, 'The reminder setting it was sent for (it goes at once when booked later than that).'),
  },
  'review_request.sent': { booking_id: str, start: str, label: str, customer_name: str },
  'turnover.booked': { property_id: str, stay_id: str, booking_id: str, start: str, label: str, ...crewFields },
  'turnover.moved': { property_id: str, stay_id: str, booking_id: str, from: str, to: str, label: str, ...crewFields },
  'turnover.cancelled': { property_id: str, stay_id: str, booking_id: str, start: str, label: str },
  'turnover.needs_attention': {
    property_id: str,
    stay_id: str,
    checkout: described(str, 'The stay’s checkout day, YYYY-MM-DD.'),
    reason: str,
  },
  'property.feed_failing': { property_id: str, url: str, reason: described(str, 'Why the last read failed; nothing is cancelled until it reads again.') },
  'webhook.failing': {
    webhook_id: str,
    url: str,
    attempts: described(int, 'Failed tries in a row so far; retries go on.'),
    reason: described(str, 'Why the last try failed.'),
  },
  'webhook.recovered': { webhook_id: str, url: str },
  'webhook.removed': { webhook_id: str, url: described(str, 'It answered 410 Gone.') },
} satisfies Record<string, Record<string, TSchema>>;

export type EventKind = keyof typeof EVENT_FIELDS;
export const EVENT_KINDS = Object.keys(EVENT_FIELDS) as EventKind[];

/** One kind of event, exactly: the shared fields, its own, and nothing else. */
export const eventSchemaOf = <K extends EventKind>(kind: K) =>
  answer({ seq: int, kind: oneOf([kind] as const), at: str, ...EVENT_FIELDS[kind], message: str }, [], { title: kind });

/** An event of the updates feed as its kind's schema says. */
export type FeedEvent = { [K in EventKind]: Static<ReturnType<typeof eventSchemaOf<K>>> }[EventKind];

/** An event of the updates feed: exactly one kind's schema matches, told apart by `kind`. */
export const feedEventSchema = Type.Unsafe<FeedEvent>({ oneOf: EVENT_KINDS.map(eventSchemaOf) });

/**
 * A stored event's fields as the feed shows them today, so rows written before a field
 * changed read like new ones: a move once stored and_following as the count of later visits.
 */
export function eventAsShown(kind: string, payload: Record<string, unknown>): Record<string, unknown> {
  if (kind === 'booking.rescheduled' && typeof payload.and_following === 'number') {
    return { ...payload, and_following: payload.and_following > 0, visits_moved: payload.and_following + 1 };
  }
  return payload;
}
