import type { RequestHandler } from 'express';
import { AppError } from '@frontdesk/domain';
import { formField, inputFromQuery, sendView, setErrorHeaders, visitIn } from '@frontdesk/http';
import { LABELS, bookingPage, cleanerOf, contactOf } from './book-page';
import { postHold, showHeld } from './held';
import { jobText } from './job-fields';
import { call, callAs, type PageDeps, customerProblem } from './page-call';
import { confirmationKeptFor, confirmationShownTo, typedIn, type Confirmation } from './shown-once';
import { confirmationElsewhere, confirmationView } from './book-view';

/** `/book/<cleaner>`: the job, its price and the open times, with what was typed before kept for the next step when the address refers to it. */
export const getBookPage =
  (d: PageDeps): RequestHandler =>
  (req, res) => {
    const typed = typedIn({ ctx: d.ctx, slot: d.shown.typed, req }, cleanerOf(req));
    return bookingPage(d, req, res, { job: jobText(req.query), contact: typed?.contact, typedRef: typed?.ref });
  };

/**
 * The details step sent, with the time held for this visit: book_cleaning with the hold and
 * what was typed, as the visit that holds it, then a 303 to the confirmation (its address
 * carries a reference to the manage link, sealed in this browser's cookie), so a reload shows
 * the booking again and never books twice. A refusal shows the held time again with what was
 * typed and the reason in words, or the hold gone with the nearest times. A form without a
 * hold (a page from before holds) holds its time first: nothing books without one here.
 */
export const postBookPage =
  (d: PageDeps): RequestHandler =>
  async (req, res, next) => {
    const body = req.body as Record<string, unknown>;
    const holdId = formField(body, 'hold_id').trim();
    if (!holdId) return postHold(d)(req, res, next);
    const job = jobText(body);
    const contact = contactOf(body);
    const visit = visitIn(req) ?? undefined;
    try {
      const fields = { cleaner_id: cleanerOf(req), expected_total: formField(body, 'expected_total').trim(), hold_id: holdId, ...job, ...contact };
      const input = inputFromQuery(d.ops.book_cleaning, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '')));
      // As the visit that holds it; the same form sent again answers the same booking.
      const as = visit ? { visit, idempotencyKey: `page-book:${holdId}` } : {};
      const booked = await callAs(d, d.ops.book_cleaning, input, { req, ...as });
      const kept: Confirmation = { token: booked.manage_token, emailed: contact.customer_email !== '' };
      const ref = d.shown.confirmation.keep(res, confirmationKeptFor(d.ctx, req, res, cleanerOf(req)), kept, d.ctx.clock());
      res.redirect(303, `/book/${encodeURIComponent(cleanerOf(req))}/booked/${ref}`);
    } catch (err) {
      if (!(err instanceof AppError)) return next(err);
      setErrorHeaders(res, err);
      const refused = { status: err.status, problem: customerProblem(err, LABELS) };
      // The held time again with the reason, or, gone, the nearest times to hold instead.
      await showHeld(d, req, res, { holdId, contact, refused });
    }
  };

/** The confirmation after booking: the booking read fresh with its manage link, in the browser that booked while it stays open, under its cleaner's address. */
export const getConfirmation =
  (d: PageDeps): RequestHandler =>
  async (req, res) => {
    const kept = d.shown.confirmation.value<Confirmation>(req, confirmationShownTo(req, cleanerOf(req)), String(req.params.ref), d.ctx.clock());
    if (!kept) return sendView(res, 200, { title: 'Your booking', body: confirmationElsewhere() });
    const b = await call(d, d.ops.booking_status, { manage_token: kept.token }, req);
    sendView(res, 200, { title: 'You are booked', body: confirmationView(b, kept.emailed) });
  };
