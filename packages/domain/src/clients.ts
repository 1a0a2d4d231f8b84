import { badClientsCursor } from './words/clients';
import { addDays, isValidLocalDate, type LocalDate } from './time';

/**
 * Clients (issue 35): who a business works for, as the client list finds them. Who one client
 * is, is the database's rule (migration 20261127T140000-clients: the email, else the phone's
 * digits); here are the rules of reading the list: what a search looks for, and its pages.
 */

/** A page of the client list: so many by default, at most so many. */
export const CLIENTS_PAGE = { default: 25, max: 100 } as const;
/** What the owner keeps about a client, at most. */
export const CLIENT_NOTES_MAX = 2000;
/** A client's past visits shown at most (the newest), and their leads. */
export const CLIENT_PAST_SHOWN = 50;
export const CLIENT_LEADS_SHOWN = 20;

/** At most this many words of a search count, each at most this long. */
const MAX_TERMS = 6;
const MAX_TERM = 100;

/**
 * The words a client search looks for, each of which a client's names, emails, phone numbers or
 * addresses must contain: lower-cased; a part of a phone number ("555-01", "(212)") as its
 * digits, since phone numbers are kept as digits.
 */
export function clientSearchTerms(q: string | undefined): string[] {
  const words = (q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const terms = words.map((w) => (/^[\d().+-]+$/.test(w) && /\d/.test(w) ? w.replace(/\D/g, '') : w).slice(0, MAX_TERM));
  return [...new Set(terms.filter(Boolean))].slice(0, MAX_TERMS);
}

/** Where a page of the client list ends: the last client's place in the name order. */
export interface ClientsAfter {
  name: string;
  id: string;
}

export const clientsCursor = (after: ClientsAfter): string => Buffer.from(JSON.stringify([after.name, after.id])).toString('base64url');

/** A cursor back as the place it marks; one not made by `clientsCursor` is refused. */
export function readClientsCursor(cursor: string): ClientsAfter {
  try {
    const [name, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof name === 'string' && typeof id === 'string') return { name, id };
  } catch {
    // refused below
  }
  throw badClientsCursor();
}

/** The days "book again" lists open times on, at a time. */
export const BOOK_AGAIN_DAYS = 7;

/**
 * The week "book again" shows: from the day asked (never before today; today without one), with
 * the weeks before (none before today) and after it a link away.
 */
export function bookAgainWeek(o: { today: LocalDate; from?: string }): { from: LocalDate; earlier: LocalDate | null; later: LocalDate } {
  const asked = o.from && isValidLocalDate(o.from) && o.from > o.today ? o.from : o.today;
  const back = addDays(asked, -BOOK_AGAIN_DAYS);
  return { from: asked, earlier: asked === o.today ? null : back < o.today ? o.today : back, later: addDays(asked, BOOK_AGAIN_DAYS) };
}
