import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '@frontdesk/domain';
import { cleanerPage, presentCheck } from '@frontdesk/use-cases';
import { formField, html, inputFromQuery, sendView, setErrorHeaders, type Problem } from '@frontdesk/http';
import { jobText } from './job-fields';
import { call, refusal, type PageDeps, customerProblem } from './page-call';
import { confirmationKeptFor, confirmationShownTo, type Confirmation } from './shown-once';
import { bookingPageView, cleanerHead, confirmationElsewhere, confirmationView, jobForm, timesAndContact } from './book-view';

/** The labels of the booking page's fields, by the operation's names, for refusals in people's words. */
const LABELS = {
  customer_name: 'Your name',
  customer_phone: 'Phone',
  customer_email: 'Email',
  address: 'Street address',
  zip: 'ZIP',
  notes: 'Notes for the cleaner',
  access_details: 'How to get in',
  start: 'The time',
  bedrooms: 'Bedrooms',
  bathrooms: 'Bathrooms',
  sqft: 'Size in square feet',
  add_ons: 'Extras',
  clean_type: 'Kind of clean',
  frequency: 'How often',
  expected_total: 'The price',
};

/** What a booking page is drawn with: the job so far, and after a refusal what was typed and why. */
interface Shown {
  job: Record<string, string>;
  contact?: Record<string, string>;
  refused?: { status: number; problem: Problem };
}

const cleanerOf = (req: Request) => String(req.params.cleaner);

/** `/book/<cleaner>`: the job form, then its price, open times and the customer's details; a refusal shown in words. */
async function bookingPage(d: PageDeps, req: Request, res: Response, shown: Shown): Promise<void> {
  const { job } = shown;
  const found = await cleanerPage(d.ctx.db, cleanerOf(req));
  if (!found) {
    return sendView(res, 404, {
      title: 'No such cleaner',
      body: html`<p class="error" role="alert">There is no cleaner at this address. Check the link you were given.</p>
        <p><a href="/">Find a cleaner</a></p>`,
    });
  }
  const { pro, checks } = found;
  let status = shown.refused?.status ?? 200;
  let problem = shown.refused?.problem;
  let times;
  if (job.bedrooms !== undefined && job.bathrooms !== undefined) {
    const days = Math.min(21, Math.max(7, Number((req.query as Record<string, unknown>).days) || 7));
    try {
      const input = inputFromQuery(d.ops.available_times, { cleaner_id: pro.id, ...job, days: String(days) });
      const open = await call(d, d.ops.available_times, input, req);
      times = timesAndContact({ pro, job, times: open, days, contact: shown.contact ?? {}, problem });
    } catch (err) {
      const e = refusal(res, err);
      status = e.status;
      problem = customerProblem(e, LABELS);
    }
  }
  const head = cleanerHead(pro, checks.map(presentCheck));
  sendView(res, status, { title: `Book ${pro.name}`, body: bookingPageView({ head, form: jobForm(pro, job), times, problem }) });
}

export const getBookPage =
  (d: PageDeps): RequestHandler =>
  (req, res) =>
    bookingPage(d, req, res, { job: jobText(req.query) });

const CONTACT_FIELDS = ['customer_name', 'customer_phone', 'customer_email', 'address', 'zip', 'notes', 'access_details', 'start'];

/**
 * The booking form sent: book_cleaning with what was typed, then a 303 to the confirmation
 * (its address carries a reference to the manage link, sealed in this browser's cookie), so a
 * reload shows the booking again and never books twice. A refusal shows the page again with
 * fresh times, what was typed, and the reason in words.
 */
export const postBookPage =
  (d: PageDeps): RequestHandler =>
  async (req, res, next) => {
    const body = req.body as Record<string, unknown>;
    const job = jobText(body);
    const contact = Object.fromEntries(CONTACT_FIELDS.map((k) => [k, formField(body, k).trim()]));
    try {
      const fields = { cleaner_id: cleanerOf(req), expected_total: formField(body, 'expected_total').trim(), ...job, ...contact };
      const input = inputFromQuery(d.ops.book_cleaning, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '')));
      const booked = await call(d, d.ops.book_cleaning, input, req);
      const kept: Confirmation = { token: booked.manage_token, emailed: contact.customer_email !== '' };
      const ref = d.shown.confirmation.keep(res, confirmationKeptFor(d.ctx, req, res, cleanerOf(req)), kept, d.ctx.clock());
      res.redirect(303, `/book/${encodeURIComponent(cleanerOf(req))}/booked/${ref}`);
    } catch (err) {
      if (!(err instanceof AppError)) return next(err);
      setErrorHeaders(res, err);
      // Fresh times with the reason: a time taken meanwhile is gone from the list.
      await bookingPage(d, req, res, { job, contact, refused: { status: err.status, problem: customerProblem(err, LABELS) } });
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
