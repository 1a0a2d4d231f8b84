import { HHMM_PATTERN, customerFieldSchemas, idSchema, jobFieldSchemas, zipSchema } from './contract-schemas';
import { singleLine } from './plain-text';
import { PROPERTY_MAX_FEEDS } from './policy';
import { answer, bool, fields, int, listOf, nullable, oneOf, str, text, type Static } from './schema';

export const PROPERTY_MODES = ['book', 'propose'] as const;

/** What add_property takes (update_property the same, each optional); the job of every turnover is bedrooms to pets. */
export const propertyFieldSchemas = {
  name: singleLine({ minLength: 1, maxLength: 100 }),
  address: customerFieldSchemas.address,
  zip: zipSchema,
  bedrooms: jobFieldSchemas.bedrooms,
  bathrooms: jobFieldSchemas.bathrooms,
  add_ons: jobFieldSchemas.add_ons,
  pets: jobFieldSchemas.pets,
  crew_id: idSchema('Default a free crew.'),
  host_name: singleLine({ minLength: 1, maxLength: 100 }),
  host_phone: singleLine({ maxLength: 30 }),
  host_email: singleLine({ maxLength: 200 }),
  checkout_time: text({ pattern: HHMM_PATTERN, description: 'Default 11:00.' }),
  checkin_time: text({ pattern: HHMM_PATTERN, description: 'Default 15:00.' }),
  calendar_urls: listOf(text({ pattern: '^https?://', maxLength: 2000 }), { minItems: 1, maxItems: PROPERTY_MAX_FEEDS, description: 'iCal export links.' }),
  mode: oneOf(PROPERTY_MODES, { description: 'Default book; propose: the owner accepts each clean.' }),
};

/** update_property's fields: add_property's without their words (defaults do not apply to a change; tools/list pays for every byte). */
export const propertyChangeSchemas = Object.fromEntries(
  Object.entries(propertyFieldSchemas).map(([name, schema]) => {
    const { description: _words, ...bare } = schema;
    return [name, bare];
  }),
) as typeof propertyFieldSchemas;

/** add_property's input: what a turnover needs, the host's name and one of their phone or email, and the calendars. */
export const addPropertyInput = fields(propertyFieldSchemas, ['name', 'address', 'zip', 'bedrooms', 'bathrooms', 'host_name', 'calendar_urls']);
export type PropertyInput = Static<typeof addPropertyInput>;

/** A calendar feed as list_properties shows it. */
export const propertyFeedSchema = answer({
  url: str,
  last_read: nullable(str),
  outcome: nullable(oneOf(['ok', 'unchanged', 'failing'])),
  reason: nullable(str),
  stays_listed: nullable(int),
});

/** A stay and its clean: booked (booking_id, start, crew), proposed, or needing attention (why). */
export const staySchema = answer({
  stay_id: str,
  check_in: str,
  checkout: str,
  source: str,
  clean: oneOf(['booked', 'proposed', 'needs_attention', 'none']),
  booking_id: nullable(str),
  start: nullable(str),
  label: nullable(str),
  crew_name: nullable(str),
  attention: nullable(str),
});

export const propertySchema = answer({
  property_id: str,
  name: str,
  address: str,
  zip: str,
  bedrooms: int,
  bathrooms: jobFieldSchemas.bathrooms,
  add_ons: listOf(str),
  pets: bool,
  crew_id: nullable(str),
  host_name: str,
  host_phone: nullable(str),
  host_email: nullable(str),
  checkout_time: str,
  checkin_time: str,
  mode: oneOf(PROPERTY_MODES),
  feeds: listOf(propertyFeedSchema),
  stays: listOf(staySchema),
});

/** A stay and its clean as a host's rental page shows it. */
export type ShownRentalStay = Static<typeof staySchema>;
