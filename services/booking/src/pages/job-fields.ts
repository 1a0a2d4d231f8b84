import { html, type Html } from '@frontdesk/http';

const JOB_FIELDS = ['bedrooms', 'bathrooms', 'clean_type', 'add_ons', 'pets', 'sqft', 'frequency'] as const;

/** The job as the page's own form sent it: text per field, add-ons joined as a query string joins a list. */
export function jobText(source: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of JOB_FIELDS) {
    const raw = source[field];
    const text = Array.isArray(raw) ? raw.filter((v) => typeof v === 'string').join(',') : typeof raw === 'string' ? raw : '';
    if (text.trim() !== '') out[field] = text.trim();
  }
  return out;
}

/** A job as an answer shows it (numbers, a list of add-ons), as the page's forms carry it. */
export function jobOfAnswer(job: {
  bedrooms: number;
  bathrooms: number;
  clean_type: string;
  add_ons: string[];
  pets: boolean;
  sqft: number | null;
  frequency: string;
}) {
  return jobText({
    bedrooms: String(job.bedrooms),
    bathrooms: String(job.bathrooms),
    clean_type: job.clean_type,
    add_ons: job.add_ons,
    pets: job.pets ? 'true' : '',
    sqft: job.sqft === null ? '' : String(job.sqft),
    frequency: job.frequency,
  });
}

export const option = (value: string, label: string, selected: boolean): Html =>
  html`<option value="${value}" ${selected && html` selected`}>${label}</option>`;
/** The bedrooms a search and a booking page start at when nothing was chosen yet: the same on both. */
export const DEFAULT_BEDROOMS = '2';
export const DEFAULT_BATHROOMS = '1';
/** The sizes a job can have, as the contract bounds them: 0 (studio) to 10 bedrooms, 1 to 10 bathrooms by halves. */
export const bedroomOptions = (selected: string | undefined): Html[] =>
  Array.from({ length: 11 }, (_, n) => option(String(n), n === 0 ? 'Studio' : String(n), (selected ?? DEFAULT_BEDROOMS) === String(n)));
export const bathroomOptions = (selected: string | undefined): Html[] =>
  Array.from({ length: 19 }, (_, i) => String(1 + i / 2)).map((b) => option(b, b, (selected ?? DEFAULT_BATHROOMS) === b));
