import type { Request, RequestHandler, Response } from 'express';
import { FREE_CANCEL_HOURS, NotFoundError, withinFreeCancel } from '@frontdesk/domain';
import { bookingCalendar } from '@frontdesk/use-cases';
import { errorLine, esc, formField, sendPage } from '@frontdesk/http';
import { MANAGE_TOKEN_PATTERN } from '../operations/bookings';
import { call, refusal, tokenOf, type CustomerBooking, type PageDeps, type Times } from './kit';
import { bookingSummary } from './views';

const NO_SUCH_LINK = 'No booking matches this link. Check that it was copied whole.';

/** `/manage/<token>`: the booking the link opens, with a way to move, cancel or add it to a calendar while it is ahead. */
async function manageView(d: PageDeps, req: Request, res: Response, notice = ''): Promise<void> {
  const token = tokenOf(req);
  try {
    const b = await call<CustomerBooking>(d, d.ops.booking_status, { manage_token: token }, req);
    const live = b.status === 'booked' && new Date(b.start).getTime() > d.ctx.clock().getTime();
    const cancel = live
      ? `<p><a href="/manage/${esc(token)}/move">Move it to another time</a></p>
<form method="post" action="/manage/${esc(token)}/cancel"><button type="submit">Cancel this cleaning</button></form>
<p class="note">Free until ${FREE_CANCEL_HOURS} hours before the start; later, the cleaner may charge.</p>`
      : '';
    sendPage(
      res,
      200,
      'Your cleaning',
      `${notice}<p>Status: <strong>${esc(b.status)}</strong></p>${bookingSummary(b)}${b.notes ? `<p>Notes: ${esc(b.notes)}</p>` : ''}
<p><a href="/manage/${esc(token)}/booking.ics">Add it to your calendar (.ics)</a></p>${cancel}`,
    );
  } catch (err) {
    const e = refusal(res, err);
    sendPage(res, e.status, 'Your cleaning', `${errorLine(e instanceof NotFoundError || e.status === 400 ? NO_SUCH_LINK : e.message)}`);
  }
}

export const getManagePage =
  (d: PageDeps): RequestHandler =>
  (req, res) =>
    manageView(d, req, res);

/**
 * "Cancel this cleaning": first a page to confirm (saying when the cleaner may charge), then
 * cancel_booking alone, and the booking as it now is.
 */
export const postCancel =
  (d: PageDeps): RequestHandler =>
  async (req, res) => {
    const token = tokenOf(req);
    try {
      if (formField(req.body, 'confirm') === 'yes') {
        const done = await call<{ message: string }>(d, d.ops.cancel_booking, { manage_token: token }, req);
        return await manageView(d, req, res, `<p class="ok" role="status">${esc(done.message)}</p>`);
      }
      const b = await call<CustomerBooking>(d, d.ops.booking_status, { manage_token: token }, req);
      const late = !withinFreeCancel(new Date(b.start), d.ctx.clock());
      sendPage(
        res,
        200,
        'Cancel this cleaning?',
        `${late ? `<p class="error" role="alert">This cleaning starts within ${FREE_CANCEL_HOURS} hours: it still cancels, but ${esc(b.cleaner.name)} may charge under their own policy.</p>` : ''}
${bookingSummary(b)}
<form method="post" action="/manage/${esc(token)}/cancel"><input type="hidden" name="confirm" value="yes"><button type="submit">Yes, cancel it</button></form>
<p><a href="/manage/${esc(token)}">Keep it</a></p>`,
      );
    } catch (err) {
      const e = refusal(res, err);
      sendPage(res, e.status, 'Your cleaning', errorLine(e.message));
    }
  };

/** The open times a booking could move to: its cleaner's, for its own job, two weeks ahead. */
async function movePage(d: PageDeps, req: Request, res: Response, refused?: { status: number; error: string }): Promise<void> {
  const token = tokenOf(req);
  try {
    const b = await call<CustomerBooking>(d, d.ops.booking_status, { manage_token: token }, req);
    const job = Object.fromEntries(Object.entries(b.job).filter(([, v]) => v !== null && !(Array.isArray(v) && v.length === 0)));
    const times = await call<Times>(d, d.ops.available_times, { cleaner_id: b.cleaner.cleaner_id, ...job, days: 14 }, req);
    const options = times.open_times
      .map((t, i) => `<label><input type="radio" name="start" value="${esc(t.start)}" required${i === 0 ? ' checked' : ''}>${esc(t.label)}</label>`)
      .join(' ');
    sendPage(
      res,
      refused?.status ?? 200,
      'Move your cleaning',
      `${errorLine(refused?.error ?? '')}<p>Now: <strong>${esc(b.label)}</strong> with ${esc(b.cleaner.name)}. The price stays the same.</p>
<form method="post" action="/manage/${esc(token)}/move"><fieldset class="times"><legend>New time</legend>${options || 'No open times in the next two weeks.'}</fieldset>
${times.open_times.length ? '<button type="submit">Move it</button>' : ''}</form><p><a href="/manage/${esc(token)}">Keep it as it is</a></p>`,
    );
  } catch (err) {
    const e = refusal(res, err);
    sendPage(res, e.status, 'Move your cleaning', errorLine(e.message));
  }
}

export const getMovePage =
  (d: PageDeps): RequestHandler =>
  (req, res) =>
    movePage(d, req, res);

export const postMove =
  (d: PageDeps): RequestHandler =>
  async (req, res) => {
    try {
      const moved = await call<{ message: string }>(d, d.ops.reschedule_booking, { manage_token: tokenOf(req), start: formField(req.body, 'start') }, req);
      await manageView(d, req, res, `<p class="ok" role="status">${esc(moved.message)}</p>`);
    } catch (err) {
      const e = refusal(res, err);
      await movePage(d, req, res, { status: e.status, error: e.message });
    }
  };

const TOKEN = new RegExp(MANAGE_TOKEN_PATTERN);

/** The booking as an .ics file, read fresh, for the customer's own calendar. */
export const getBookingIcs =
  (d: PageDeps): RequestHandler =>
  async (req, res) => {
    const token = tokenOf(req);
    const host = new URL(d.ctx.config.publicUrl).host;
    const ics = TOKEN.test(token) ? await bookingCalendar(d.ctx.db, token, host, d.ctx.clock()) : undefined;
    if (!ics) return sendPage(res, 404, 'Your cleaning', errorLine(NO_SUCH_LINK));
    res
      .status(200)
      .type('text/calendar; charset=utf-8')
      .setHeader('Cache-Control', 'no-store')
      .setHeader('Content-Disposition', 'attachment; filename="cleaning.ics"')
      .send(ics);
  };
