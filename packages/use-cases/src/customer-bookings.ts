import {
  BOOK_HOST_FEE_CENTS,
  customerContact,
  fromUsd,
  noBookingWithToken,
  noCleanerToFind,
  normalizeEmail,
  normalizeJob,
  parseStart,
  requireServedZip,
  type JobInput,
  type KnownUser,
} from '@frontdesk/domain';
import {
  bookingByToken,
  bookingsOfAccount,
  getPro,
  latestChecks,
  replaceManageToken,
  seriesHasEnded,
  upcomingVisits,
  type Booking,
  type Db,
  type Pro,
} from '@frontdesk/db';
import { mailNewManageLink, type MailLinks } from './booking-mail';
import { createBooking, type Booked, type BookingRequest } from './book';
import type { HoldClaim } from './hold-claims';
import { cancelBooking, type Cancelled } from './cancel';
import { rescheduleBooking, type Rescheduled } from './reschedule';

/**
 * A customer's side of a booking on the book host: booking a cleaner, and checking, moving
 * and cancelling with the manage token (the token is the capability; it is hashed once, in
 * the database layer, and never kept).
 */

export interface CustomerBookingInput extends JobInput {
  cleaner_id: string;
  start: string;
  customer_name?: string;
  customer_phone?: string;
  customer_email?: string;
  address: string;
  zip: string;
  notes?: string;
  access_details?: string;
  /** The total in USD the customer was shown. */
  expected_total?: number;
  skip_conflicts?: boolean;
}

/** Who books: what the assistant said of its user, the verified account (if any), the assistant's name. */
export interface CustomerCaller {
  user: KnownUser;
  accountEmail: string | null;
  clientName: string | null;
  /** The book host the customer is on: their confirmation mail links to their page there (no customer mail without it). */
  mail?: MailLinks;
  /** Book what this hold keeps, using it up (book_cleaning's hold_id). */
  hold?: HoldClaim;
}

export type CustomerBooked = Booked & { manageToken: string; contact: { name: string; phone: string | null; email: string | null; address: string } };

/** Books a cleaner for a customer: the details resolved and checked, the ZIP served, one fee, a manage token. */
export async function bookForCustomer(db: Db, caller: CustomerCaller, input: CustomerBookingInput, now: Date): Promise<CustomerBooked> {
  const contact = customerContact(input, caller.user, caller.accountEmail);
  const booked = await createBooking(db, {
    proId: input.cleaner_id,
    hold: caller.hold,
    missing: () => noCleanerToFind(input.cleaner_id),
    make: (pro) => bookingOf(pro),
  });
  return { ...booked, manageToken: booked.manageToken!, contact };

  function bookingOf(pro: Pro): BookingRequest {
    requireServedZip(pro, input.zip);
    return {
      proId: pro.id,
      job: normalizeJob(input),
      start: parseStart(input.start, pro.timezone),
      customer: { name: contact.name, phone: contact.phone, email: contact.email },
      address: contact.address,
      zip: input.zip,
      notes: contact.notes,
      accessDetails: input.access_details?.trim() || null,
      channel: 'book',
      clientName: caller.clientName,
      leadId: null,
      feeCents: BOOK_HOST_FEE_CENTS,
      manageToken: true,
      accountEmail: caller.accountEmail,
      expectedTotalCents: input.expected_total === undefined ? null : fromUsd(input.expected_total),
      skipConflicts: input.skip_conflicts ?? false,
      mail: caller.mail,
      hold: caller.hold,
      now,
    };
  }
}

/**
 * A retried booking's answer gets a fresh manage token (only hashes are kept, so the lost one
 * cannot be shown again); the lost one stops working, so with `mail` the customer is mailed
 * the new link, in the same transaction.
 */
export async function renewManageToken(db: Db, bookingId: string, mail?: { links: MailLinks; now: Date }): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const token = (await replaceManageToken(trx, bookingId))!;
    const found = mail && (await bookingByToken(trx, token));
    if (mail && found) await mailNewManageLink(trx, { ...found, manageToken: token }, mail.links, mail.now);
    return token;
  });
}

/**
 * The booking a manage token opens, with its pro and, for a series, its visits that have not
 * ended and whether the series itself has ended (it books no more visits).
 */
export async function managedBooking(db: Db, manageToken: string, now: Date): Promise<{ booking: Booking; pro: Pro; visits: Booking[]; seriesEnded: boolean }> {
  const found = await bookingByToken(db, manageToken);
  if (!found) throw noBookingWithToken();
  const seriesId = found.booking.series_id;
  const [visits, seriesEnded] = seriesId ? await Promise.all([upcomingVisits(db, seriesId, now), seriesHasEnded(db, seriesId)]) : [[], false];
  return { ...found, visits, seriesEnded };
}

/** Which booking a customer acts on: the one the token opens, or another visit of its series. */
export interface ManagedVisit {
  manageToken: string;
  visitId?: string;
  andFollowing?: boolean;
  /** The book host the customer is on: the change is confirmed to them by mail (none without it). */
  mail?: MailLinks;
}

export function cancelManaged(db: Db, at: ManagedVisit, now: Date): Promise<Cancelled> {
  return cancelBooking(db, { by: 'customer', manageToken: at.manageToken, visitId: at.visitId }, now, { andFollowing: at.andFollowing, mail: at.mail });
}

export function rescheduleManaged(db: Db, at: ManagedVisit & { start: string }, now: Date): Promise<Rescheduled> {
  return rescheduleBooking(
    db,
    { by: 'customer', manageToken: at.manageToken, visitId: at.visitId },
    { start: at.start, andFollowing: at.andFollowing, mail: at.mail, now },
  );
}

/** A customer account's bookings, newest first, with each cleaner's details. */
export function accountBookings(db: Db, email: string) {
  return bookingsOfAccount(db, normalizeEmail(email));
}

/** A cleaner as its booking page introduces it: the business and its latest checks; undefined for an unknown id. */
export async function cleanerPage(db: Db, cleanerId: string) {
  const pro = await getPro(db, cleanerId);
  if (!pro) return undefined;
  return { pro, checks: (await latestChecks(db, [pro.id])).get(pro.id) ?? [] };
}
