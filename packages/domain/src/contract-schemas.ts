import { CLEAN_TYPES, FREQUENCIES } from './job';

/**
 * JSON Schemas of the contract's fields, shared by every operation that takes them. The
 * REST validator, /openapi.json and MCP tool schemas are all generated from these.
 */
export const ZIP_PATTERN = '^[0-9]{5}$';
export const HHMM_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
export const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
export const MONTH_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])$';

export const jobFieldSchemas = {
  bedrooms: { type: 'integer', minimum: 0, maximum: 10, description: 'Number of bedrooms, 0 (studio) to 10.' },
  bathrooms: { type: 'number', minimum: 1, maximum: 10, multipleOf: 0.5, description: 'Number of bathrooms, 1 to 10; halves allowed (2.5).' },
  clean_type: {
    type: 'string',
    enum: [...CLEAN_TYPES],
    description: 'standard (default), deep, move_out (also move-in), or turnover (short-term rental between guests).',
  },
  sqft: {
    type: 'integer',
    minimum: 200,
    maximum: 15000,
    description: 'Home size in square feet, only if the customer stated it; never guess. Homes larger than usual for their bedroom count cost more.',
  },
  frequency: {
    type: 'string',
    enum: [...FREQUENCIES],
    description: 'once (default), weekly, biweekly or monthly: only what the customer asked for; never switch to recurring just to lower the price.',
  },
  add_ons: {
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: 50 },
    maxItems: 20,
    description: 'Extras such as fridge, oven, windows, cabinets, laundry (comma-separated in a query string).',
  },
  pets: { type: 'boolean', description: 'Pets in the home (default false).' },
} as const;

export const zipSchema = { type: 'string', pattern: ZIP_PATTERN, description: '5-digit ZIP code.' } as const;

export const openTimesFieldSchemas = {
  start_after: { type: 'string', pattern: HHMM_PATTERN, description: 'Earliest local start, HH:MM 24-hour (e.g. a guest checkout time).' },
  finish_by: { type: 'string', pattern: HHMM_PATTERN, description: 'The job must end by this local time, HH:MM 24-hour (e.g. the next check-in).' },
  date: { type: 'string', pattern: DATE_PATTERN, description: "First day to list, YYYY-MM-DD; default today in the business's time zone." },
  days: { type: 'integer', minimum: 1, maximum: 21, default: 7, description: 'Number of days listed, 1 to 21 (default 7).' },
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
  customer_name: { type: 'string', minLength: 1, maxLength: 100, description: "The customer's name." },
  customer_phone: { type: 'string', maxLength: 30, description: "The customer's phone; give phone or email (or both)." },
  customer_email: { type: 'string', maxLength: 200, description: "The customer's email; give phone or email (or both)." },
  address: { type: 'string', minLength: 3, maxLength: 300, description: 'Street address of the home.' },
  zip: zipSchema,
  notes: { type: 'string', maxLength: 500, description: 'Anything the cleaner should know (optional).' },
} as const;
