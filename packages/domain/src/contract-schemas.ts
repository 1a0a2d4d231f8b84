import { CLEAN_TYPES, FREQUENCIES } from './job';
import { multiLine, singleLine } from './plain-text';

/**
 * JSON Schemas of the contract's fields, shared by every operation that takes them. The
 * REST validator, /openapi.json and MCP tool schemas are all generated from these.
 */
export const ZIP_PATTERN = '^[0-9]{5}$';
export const HHMM_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
export const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
export const MONTH_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])$';

export const jobFieldSchemas = {
  bedrooms: { type: 'integer', minimum: 0, maximum: 10 },
  bathrooms: { type: 'number', minimum: 1, maximum: 10, multipleOf: 0.5, description: 'A multiple of 0.5.' },
  clean_type: {
    type: 'string',
    enum: [...CLEAN_TYPES],
    description: 'move_out: also move-in.',
  },
  sqft: {
    type: 'integer',
    minimum: 200,
    maximum: 15000,
    description: 'Only if the customer stated it; never guess.',
  },
  frequency: {
    type: 'string',
    enum: [...FREQUENCIES],
    description: 'As asked; never switch to recurring just to lower the price.',
  },
  add_ons: {
    type: 'array',
    items: singleLine({ minLength: 1, maxLength: 50 }),
    maxItems: 20,
  },
  pets: { type: 'boolean' },
} as const;

export const zipSchema = { type: 'string', pattern: ZIP_PATTERN, description: '5 digits.' } as const;

export const openTimesFieldSchemas = {
  start_after: { type: 'string', pattern: HHMM_PATTERN, description: 'Earliest local start, HH:MM (e.g. a checkout).' },
  finish_by: { type: 'string', pattern: HHMM_PATTERN, description: 'Local HH:MM the job must end by (e.g. a check-in).' },
  date: { type: 'string', pattern: DATE_PATTERN, description: 'First day, YYYY-MM-DD; default today.' },
  days: { type: 'integer', minimum: 1, maximum: 21, default: 7 },
} as const;

/** The open-times fields as they arrive, validated, from a request. */
export interface OpenTimesFields {
  start_after?: string;
  finish_by?: string;
  date?: string;
  days?: number;
}

export const DEFAULT_DAYS = 7;

export const customerFieldSchemas = {
  customer_name: singleLine({ minLength: 1, maxLength: 100 }),
  customer_phone: singleLine({ maxLength: 30, description: 'Phone or email is required.' }),
  customer_email: singleLine({ maxLength: 200, description: 'Phone or email is required.' }),
  address: singleLine({ minLength: 3, maxLength: 300, description: 'Street address.' }),
  zip: zipSchema,
  notes: multiLine({ maxLength: 500, description: 'Optional.' }),
} as const;

/** An id the service gave out (a booking's, a crew's, a webhook's): one line, as long as any of ours can be. */
export const idSchema = (description?: string) => singleLine({ minLength: 1, maxLength: 64, description });
