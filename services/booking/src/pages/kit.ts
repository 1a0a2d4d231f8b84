import type { Request, Response } from 'express';
import { AppError, CONFIRMATION_SHOWN_MINUTES, formatUsd, fromUsd, type customerBookingSchema, type Static } from '@frontdesk/domain';
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
  type AnswerOf,
  type AnyOperation,
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

/** Runs an operation for a visitor of the page, naming the page as the client: its answer is typed by the operation's output schema. */
export async function call<O extends AnyOperation<Customer>>(d: PageDeps, op: O, input: unknown, req: Request): Promise<AnswerOf<O>> {
  return (await runOperation({ op, input, req, principal: visitor() }, { ...d.run, clientName: PAGE_CLIENT })).result;
}

/** A refusal as the page says it: its sentence, with the headers the API would send. Anything else is not a refusal. */
export function refusal(res: Response, err: unknown): AppError {
  if (!(err instanceof AppError)) throw err;
  setErrorHeaders(res, err);
  return err;
}

/** The operations' answers the pages show, as the operations' output schemas type them. */
type Ops = BookingOperationSet;
export type Found = AnswerOf<Ops['find_cleaners']>;
export type Times = AnswerOf<Ops['available_times']>;
/** booking_status: the booking the link opens and, for a series, its visits from now on. */
export type Status = AnswerOf<Ops['booking_status']>;
export type Booked = AnswerOf<Ops['book_cleaning']>;
/** A booking as every customer answer shows it. */
export type CustomerBooking = Static<typeof customerBookingSchema>;
export type Visit = Status['series_visits'][number];
export type Price = Times['price'];
export type Line = Price['line_items'][number];
/** An open start as a page offers it. */
export type Shown = Pick<Found['cleaners'][number]['next_open_times'][number], 'start' | 'label'>;

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
