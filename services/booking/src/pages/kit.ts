import type { Request, Response } from 'express';
import { AppError, formatUsd, fromUsd } from '@frontdesk/domain';
import { esc, runOperation, setErrorHeaders, type Operation, type RunOptions } from '@frontdesk/http';
import type { Customer } from '../auth';
import type { AppContext } from '../context';
import type { BookingOperationSet } from '../operations';

/**
 * What the customer's pages share: the operations they run (through the same runner as an
 * assistant's call, so the rules, limits and sentences are the API's), who they run them as,
 * and the small pieces of markup more than one page draws.
 */
export interface PageDeps {
  ctx: AppContext;
  ops: BookingOperationSet;
  run: RunOptions<Customer>;
}

const PAGE_CLIENT = 'the booking page';
const visitor = (): Customer => ({ credential: 'public', email: null, scopes: new Set(['read', 'write']), user: { name: null, email: null, phone: null } });

/** Runs an operation for a visitor of the page, naming the page as the client. */
export async function call<T>(d: PageDeps, op: Operation<Customer, never>, input: unknown, req: Request): Promise<T> {
  return (await runOperation({ op: op, input, req, principal: visitor() }, { ...d.run, clientName: PAGE_CLIENT })).result as T;
}

/** A refusal as the page says it: its sentence, with the headers the API would send. Anything else is not a refusal. */
export function refusal(res: Response, err: unknown): AppError {
  if (!(err instanceof AppError)) throw err;
  setErrorHeaders(res, err);
  return err;
}

/** The parts of the operations' answers the pages show (the answers' schemas say the rest). */
export interface Line {
  label: string;
  amount: number;
}
export interface Shown {
  start: string;
  label: string;
}
export interface Price {
  total: number;
  summary: string;
  line_items: Line[];
}
export interface Times {
  price: Price;
  open_times: Shown[];
}
export interface Found {
  message?: string;
  cleaners: { cleaner_id: string; name: string; total: number; price: Price; next_open_times: Shown[]; checks: { summary: string }[] }[];
}
export interface CustomerBooking {
  job: Record<string, unknown>;
  status: string;
  start: string;
  label: string;
  address: string;
  zip: string;
  notes: string | null;
  total: number;
  line_items: Line[];
  cleaner: { cleaner_id: string; name: string; phone: string | null; email: string | null };
}
export interface Booked extends CustomerBooking {
  message: string;
  manage_url: string;
}

export const money = (usd: number) => formatUsd(fromUsd(usd));
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

export const option = (value: string, label: string, selected: boolean) => `<option value="${esc(value)}"${selected ? ' selected' : ''}>${esc(label)}</option>`;
/** The sizes a job can have, as the contract bounds them: 0 (studio) to 10 bedrooms, 1 to 10 bathrooms by halves. */
export const bedroomOptions = (selected: string | undefined) =>
  Array.from({ length: 11 }, (_, n) => option(String(n), n === 0 ? 'Studio' : String(n), selected === String(n))).join('');
export const bathroomOptions = (selected: string) =>
  Array.from({ length: 19 }, (_, i) => String(1 + i / 2))
    .map((b) => option(b, b, selected === b))
    .join('');

/** A manage link's token, as the links carry it. */
export const tokenOf = (req: Request) => String(req.params.token);
