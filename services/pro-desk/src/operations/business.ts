import {
  bookingPageOf,
  answer,
  bool,
  idSchema,
  int,
  listOf,
  mapOf,
  nullable,
  num,
  oneOf,
  pipelineSchema,
  holdSchema,
  pencilledInMessage,
  proBookingSchema,
  str,
  offeredAddOns,
  offeredCleanTypes,
  presentWeeklyHours,
  toUsd,
  fields,
  NO_INPUT,
  customerMessageSettingsSchemas,
  presentReviewRequest,
  settingsSchemas,
} from '@frontdesk/domain';
import type { Crew, Pro, TimeOffRow } from '@frontdesk/db';
import { businessOverview, heldUntil, presentBooking, presentHold, presentTimeOff, readSchedule } from '@frontdesk/use-cases';
import { READS } from '@frontdesk/http';
import type { AppContext } from '../context';
import { crewSchema, presentCrew } from './crews';
import { defineOperation } from './define';

const usd = num;
/** Time off; one crew's names its crew, the whole business's names none. */
export const timeOffSchema = answer({ time_off_id: str, start: str, end: str, label: str, note: nullable(str), crew_id: str, crew_name: str }, [
  'crew_id',
  'crew_name',
]);

/** The business as my_business shows it: profile, prices, add-ons, hours, time off and booking link. */
export const businessSchema = answer({
  pro_id: str,
  name: str,
  timezone: str,
  phone: nullable(str),
  email: nullable(str),
  website: nullable(str),
  service_zips: listOf(str),
  booking_page: str,
  prices: answer({
    currency: oneOf(['USD']),
    base: usd,
    per_bedroom: usd,
    per_bathroom: usd,
    per_half_bathroom: usd,
    minimum: usd,
    clean_types: mapOf(answer({ price_multiplier: num })),
    frequency_discounts_pct: mapOf(num),
    first_visit: oneOf(['discounted', 'full_price']),
    larger_home_surcharge: answer({ per_100_sqft_over_usual: usd, usual_sqft_by_bedrooms: listOf(int) }),
    pets_fee: usd,
    crew_size: int,
  }),
  add_ons: listOf(answer({ name: str, label: str, price: usd, minutes: int })),
  working_hours: mapOf(listOf(str)),
  travel_buffer_minutes: int,
  slot_step_minutes: int,
  min_notice_hours: num,
  email_me_customer_changes: bool,
  ...customerMessageSettingsSchemas,
  owner_agenda: settingsSchemas.owner_agenda,
  host_turnovers: settingsSchemas.host_turnovers,
  time_off: listOf(timeOffSchema),
  crews: listOf(crewSchema),
});

/** The business as my_business shows it; update_business takes the same shapes back. */
export function presentBusiness(
  pro: Pro,
  bookingUrl: string,
  timeOff: (TimeOffRow & { crew_name?: string | null })[],
  crews: { crews: Crew[]; upcoming: Map<string, number> },
) {
  const list = pro.price_list;
  return {
    pro_id: pro.id,
    name: pro.name,
    timezone: pro.timezone,
    phone: pro.phone,
    email: pro.email,
    website: pro.website,
    service_zips: pro.service_zips,
    booking_page: bookingPageOf(bookingUrl, pro.id),
    prices: {
      currency: 'USD' as const,
      base: toUsd(list.base_cents),
      per_bedroom: toUsd(list.per_bedroom_cents),
      per_bathroom: toUsd(list.per_bathroom_cents),
      per_half_bathroom: toUsd(list.per_bathroom_cents / 2),
      minimum: toUsd(list.minimum_cents),
      clean_types: Object.fromEntries(offeredCleanTypes(list).map((type) => [type, { price_multiplier: list.clean_types[type]!.price_pct / 100 }])),
      frequency_discounts_pct: list.frequency_discount_pct,
      first_visit: list.first_visit_discounted ? ('discounted' as const) : ('full_price' as const),
      larger_home_surcharge: {
        per_100_sqft_over_usual: toUsd(list.sqft.surcharge_cents_per_100),
        usual_sqft_by_bedrooms: list.sqft.usual_max_by_bedrooms,
      },
      pets_fee: toUsd(list.pets_fee_cents),
      crew_size: list.crew_size,
    },
    add_ons: offeredAddOns(list).map((name) => ({
      name,
      label: list.add_ons[name]!.label,
      price: toUsd(list.add_ons[name]!.price_cents),
      minutes: list.add_ons[name]!.minutes,
    })),
    working_hours: presentWeeklyHours(pro.weekly_hours),
    travel_buffer_minutes: pro.travel_buffer_minutes,
    slot_step_minutes: pro.slot_step_minutes,
    min_notice_hours: pro.min_notice_minutes / 60,
    email_me_customer_changes: pro.email_me_customer_changes,
    customer_reminders: pro.customer_reminder_hours,
    review_request: presentReviewRequest(pro),
    owner_agenda: pro.owner_agenda,
    host_turnovers: pro.host_turnovers,
    time_off: timeOff.map((t) => presentTimeOff(t, pro.timezone)),
    crews: crews.crews.map((c) => presentCrew(c, pro, crews.upcoming.get(c.id) ?? 0)),
  };
}

export const myBusiness = (ctx: AppContext) =>
  defineOperation({
    name: 'my_business',
    tag: 'business',
    title: 'Business profile',
    description: "Profile, prices, add-ons, ZIPs, hours, time off, crews, booking page, month's pipeline. Read it first.",
    method: 'GET',
    input: NO_INPUT,
    output: answer({ ...businessSchema.properties, pipeline: pipelineSchema }),
    ...READS,
    async handler(_input, { principal: pro, now }) {
      const { timeOff, pipeline, crews, upcoming } = await businessOverview(ctx.db, pro, now);
      return { ...presentBusiness(pro, ctx.config.bookingUrl, timeOff, { crews, upcoming }), pipeline };
    },
  });

export const schedule = (ctx: AppContext) =>
  defineOperation({
    name: 'schedule',
    tag: 'business',
    title: 'Upcoming schedule',
    description: "Upcoming jobs with contact and address (AI assistants' bookings too) and unread notifications, then marked read.",
    method: 'GET',
    input: fields({ crew_id: idSchema("Only this crew's.") }),
    output: answer({
      timezone: str,
      count: int,
      jobs: listOf(proBookingSchema),
      notifications: listOf(answer({ id: str, kind: str, booking_id: nullable(str), message: str, created_at: str })),
      holds: listOf(answer({ ...holdSchema.properties, message: str })),
    }),
    readOnly: false,
    // It only stamps unread notifications read: nothing is replaced or taken away.
    destructive: false,
    idempotent: false,
    scope: 'read',
    async handler(input, { principal: pro, now }) {
      const { jobs, notifications, holds } = await readSchedule(ctx.db, pro, now, input.crew_id);
      return {
        timezone: pro.timezone,
        count: jobs.length,
        jobs: jobs.map((b) => presentBooking(b, pro.timezone)),
        notifications: notifications.map((n) => ({
          id: n.id,
          kind: n.kind,
          booking_id: n.booking_id,
          message: n.message,
          created_at: n.created_at.toISOString(),
        })),
        holds: holds.map((h) => {
          const shown = presentHold(h, { timezone: pro.timezone, crewName: h.crew_name });
          const until = heldUntil(h, pro.timezone);
          return { ...shown, message: pencilledInMessage({ label: shown.label, crewName: h.crew_name, until, leadName: h.lead_name }) };
        }),
      };
    },
  });
