import type { Request, Response } from 'express';
import { AppError, CONFIRMATION_SHOWN_MINUTES, formatUsd, fromUsd, type OpenDay } from '@frontdesk/domain';
import {
  holderOf,
  html,
  runOperation,
  setErrorHeaders,
  ShownOnce,
  visitIn,
  visitOf,
  type Holder,
  type Html,
  type Operation,
  type RunOptions,
} from '@frontdesk/http';
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
  shown: ReturnType<typeof shownOnceSlots>;
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
  timezone: string;
  price: Price & { recurring: { frequency: string; visit_total: number; first_visit: string } | null };
  open_times: OpenDay[];
}
export interface Found {
  message?: string;
  cleaners: { cleaner_id: string; name: string; total: number; price: Price; next_open_times: Shown[]; checks: { summary: string }[] }[];
  not_offered: { name: string }[];
}
export interface Visit {
  booking_id: string;
  status: string;
  start: string;
  label: string;
}
export interface CustomerBooking {
  booking_id: string;
  series_id: string | null;
  job: Record<string, unknown> & { frequency?: string };
  status: string;
  start: string;
  label: string;
  timezone: string;
  address: string;
  zip: string;
  notes: string | null;
  total: number;
  line_items: Line[];
  cleaner: { cleaner_id: string; name: string; phone: string | null; email: string | null };
}
/** booking_status: the booking the link opens and, for a series, its visits from now on. */
export interface Status extends CustomerBooking {
  manage_url: string;
  series_visits: Visit[];
  series_ended: boolean;
}
export interface Booked extends CustomerBooking {
  message: string;
  manage_token: string;
  manage_url: string;
  shared_with_cleaner: string[];
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

/** A manage link's token, as the links carry it. */
export const tokenOf = (req: Request) => String(req.params.token);

/** What a booking confirmation keeps for its reloads: the manage token, and whether a mail went out. */
export interface Confirmation {
  token: string;
  emailed: boolean;
}
/** What a manage page shows once after a cancel or a move: the operation's sentence. */
export interface Notice {
  said: string;
}

/**
 * Who a booking's confirmation is shown to: no one signs in to book, so it is held by this
 * browser's visit (begun by the booking's POST, dropped when the browser closes) together with
 * the cleaner whose address it is shown under.
 */
const confirmationFor = (visit: Holder, cleanerId: string): Holder => holderOf('booking confirmation', visit, cleanerId);
/** The holder a booking's POST keeps its confirmation for, beginning the visit if there is none. */
export const confirmationKeptFor = (d: PageDeps, req: Request, res: Response, cleanerId: string): Holder =>
  confirmationFor(visitOf(req, res, d.ctx.config.publicUrl.startsWith('https://')), cleanerId);
/** The holder a confirmation page is opened by, or null when this browser has no visit (closed since). */
export function confirmationShownTo(req: Request, cleanerId: string): Holder | null {
  const visit = visitIn(req);
  return visit && confirmationFor(visit, cleanerId);
}

/** Who a manage page's notice is shown to: whoever holds the manage link it was made on (a digest of its token), on that link only. */
export const noticeHolder = (token: string): Holder => holderOf('manage link', token);

/** The pages' results shown once (sealed in a short-lived cookie), one slot per kind. */
export function shownOnceSlots(ctx: AppContext): { confirmation: ShownOnce; notice: ShownOnce } {
  const secure = ctx.config.publicUrl.startsWith('https://');
  return {
    confirmation: new ShownOnce(ctx.config.keySealer, { name: 'fd_booked', path: '/book', secure, minutes: CONFIRMATION_SHOWN_MINUTES }),
    notice: new ShownOnce(ctx.config.keySealer, { name: 'fd_manage_notice', path: '/manage', secure, minutes: 5 }),
  };
}
