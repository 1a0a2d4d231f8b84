import { CLEAN_TYPES, FREQUENCIES } from './job';
import { multiLine, singleLine } from './plain-text';
import { boolean, fields, integer, listOf, number, oneOf, text, type Static } from './schema';

/**
 * JSON Schemas of the contract's fields, shared by every operation that takes them. The
 * REST validator, /openapi.json and MCP tool schemas are all generated from these.
 */
export const ZIP_PATTERN = '^[0-9]{5}$';
export const HHMM_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
export const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
export const MONTH_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])$';

export const jobFieldSchemas = {
  bedrooms: integer({ minimum: 0, maximum: 10 }),
  bathrooms: number({ minimum: 1, maximum: 10, multipleOf: 0.5, description: 'A multiple of 0.5.' }),
  clean_type: oneOf(CLEAN_TYPES, { description: 'move_out: also move-in.' }),
  sqft: integer({ minimum: 200, maximum: 15000, description: 'Only if the customer stated it; never guess.' }),
  frequency: oneOf(FREQUENCIES, { description: 'As asked; never switch to recurring just to lower the price.' }),
  add_ons: listOf(singleLine({ minLength: 1, maxLength: 50 }), { maxItems: 20 }),
  pets: boolean(),
};

export const zipSchema = text({ pattern: ZIP_PATTERN, description: '5 digits.' });

export const openTimesFieldSchemas = {
  start_after: text({ pattern: HHMM_PATTERN, description: 'Earliest local start, HH:MM (e.g. a checkout).' }),
  finish_by: text({ pattern: HHMM_PATTERN, description: 'Local HH:MM the job must end by (e.g. a check-in).' }),
  date: text({ pattern: DATE_PATTERN, description: 'First day, YYYY-MM-DD; default today.' }),
  days: integer({ minimum: 1, maximum: 21, default: 7 }),
};

/** The open-times fields as they arrive, validated, from a request. */
export type OpenTimesFields = Static<ReturnType<typeof fields<typeof openTimesFieldSchemas>>>;

export const DEFAULT_DAYS = 7;

export const customerFieldSchemas = {
  customer_name: singleLine({ minLength: 1, maxLength: 100 }),
  customer_phone: singleLine({ maxLength: 30, description: 'Phone or email is required.' }),
  customer_email: singleLine({ maxLength: 200, description: 'Phone or email is required.' }),
  address: singleLine({ minLength: 3, maxLength: 300, description: 'Street address.' }),
  zip: zipSchema,
  notes: multiLine({ maxLength: 500, description: 'Optional.' }),
};

/** An id the service gave out (a booking's, a crew's, a webhook's): one line, as long as any of ours can be. */
export const idSchema = (description?: string) => singleLine({ minLength: 1, maxLength: 64, description });
/** A hold's id, as hold_time answers it. */
export const holdIdSchema = idSchema('From hold_time.');
