import type { Request, Response } from 'express';
import { CONFIRMATION_SHOWN_MINUTES, HOLD_MINUTES } from '@frontdesk/domain';
import { holderOf, ShownOnce, visitIn, visitOf, type Holder } from '@frontdesk/http';
import type { AppContext } from '../context';

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
export const confirmationKeptFor = (ctx: AppContext, req: Request, res: Response, cleanerId: string): Holder =>
  confirmationFor(visitOf(req, res, ctx.config.publicUrl.startsWith('https://')), cleanerId);
/** The holder a confirmation page is opened by, or null when this browser has no visit (closed since). */
export function confirmationShownTo(req: Request, cleanerId: string): Holder | null {
  const visit = visitIn(req);
  return visit && confirmationFor(visit, cleanerId);
}

/** Who the details typed before a refusal are kept for on the way to the next held time: this browser's visit, on this cleaner's page. */
export const typedFor = (visit: Holder, cleanerId: string): Holder => holderOf('typed details', visit, cleanerId);

/** The longest each typed detail is kept (the form's own maxlength), so a cookie always holds them all. */
const TYPED_MAX: Record<string, number> = {
  customer_name: 100,
  customer_phone: 30,
  customer_email: 200,
  address: 300,
  zip: 10,
  notes: 500,
  access_details: 500,
};

/**
 * Keeps what the customer typed (the picked time aside) for this visit on this cleaner's page,
 * for the next step's address to refer to: the reference, or undefined when nothing was typed.
 */
export function keepTyped(
  o: { ctx: AppContext; slot: ShownOnce; req: Request; res: Response },
  cleanerId: string,
  contact: Record<string, string>,
): string | undefined {
  const typed = Object.fromEntries(
    Object.entries(contact)
      .filter(([k, v]) => k in TYPED_MAX && v !== '')
      .map(([k, v]) => [k, v.slice(0, TYPED_MAX[k])]),
  );
  if (Object.keys(typed).length === 0) return undefined;
  const visit = visitOf(o.req, o.res, o.ctx.config.publicUrl.startsWith('https://'));
  return o.slot.keep(o.res, typedFor(visit, cleanerId), typed, o.ctx.clock());
}

/** What was typed before, by the reference in the address (`?typed=`): the details and the reference, or nothing kept for this visit. */
export function typedIn(
  o: { ctx: AppContext; slot: ShownOnce; req: Request },
  cleanerId: string,
): { contact: Record<string, string>; ref: string } | undefined {
  const visit = visitIn(o.req);
  const ref = typeof o.req.query.typed === 'string' ? o.req.query.typed : '';
  const contact = visit && ref ? o.slot.value<Record<string, string>>(o.req, typedFor(visit, cleanerId), ref, o.ctx.clock()) : null;
  return contact ? { contact, ref } : undefined;
}

/** Who a manage page's notice is shown to: whoever holds the manage link it was made on (a digest of its token), on that link only. */
export const noticeHolder = (token: string): Holder => holderOf('manage link', token);

/** The pages' results shown once (sealed in a short-lived cookie), one slot per kind. */
export function shownOnceSlots(ctx: AppContext): { confirmation: ShownOnce; notice: ShownOnce; typed: ShownOnce } {
  const secure = ctx.config.publicUrl.startsWith('https://');
  return {
    confirmation: new ShownOnce(ctx.config.keySealer, { name: 'fd_booked', path: '/book', secure, minutes: CONFIRMATION_SHOWN_MINUTES }),
    notice: new ShownOnce(ctx.config.keySealer, { name: 'fd_manage_notice', path: '/manage', secure, minutes: 5 }),
    typed: new ShownOnce(ctx.config.keySealer, { name: 'fd_typed', path: '/book', secure, minutes: HOLD_MINUTES.book.max }),
  };
}
