import type { Request, Response } from 'express';
import { cleanerPage, presentCheck } from '@frontdesk/use-cases';
import { formField, html, inputFromQuery, sendView, type Problem } from '@frontdesk/http';
import { call, refusal, type PageDeps, customerProblem } from './page-call';
import { bookingPageView, cleanerHead, jobForm, timesToHold } from './book-view';

/** The booking page's first steps (the job, its price and the open times to hold), drawn for every step that falls back to them. */

/** The labels of the booking page's fields, by the operation's names, for refusals in people's words. */
export const LABELS = {
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
export interface Shown {
  job: Record<string, string>;
  contact?: Record<string, string>;
  /** The reference the details typed before are kept under for this visit (the address's `typed`). */
  typedRef?: string;
  refused?: { status: number; problem: Problem };
}

export const cleanerOf = (req: Request) => String(req.params.cleaner);

/** `/book/<cleaner>`: the job form, then its price and the open times to hold; a refusal shown in words. */
export async function bookingPage(d: PageDeps, req: Request, res: Response, shown: Shown): Promise<void> {
  const { job } = shown;
  const found = await cleanerPage(d.ctx.db, cleanerOf(req));
  if (!found) return noCleaner(res);
  const { pro, checks } = found;
  let status = shown.refused?.status ?? 200;
  let problem = shown.refused?.problem;
  let times;
  if (job.bedrooms !== undefined && job.bathrooms !== undefined) {
    const days = Math.min(21, Math.max(7, Number((req.query as Record<string, unknown>).days) || 7));
    try {
      const input = inputFromQuery(d.ops.available_times, { cleaner_id: pro.id, ...job, days: String(days) });
      const open = await call(d, d.ops.available_times, input, req);
      times = timesToHold({ pro, job, times: open, days, contact: shown.contact ?? {}, typedRef: shown.typedRef, problem });
    } catch (err) {
      const e = refusal(res, err);
      status = e.status;
      problem = customerProblem(e, LABELS);
    }
  }
  const head = cleanerHead(pro, checks.map(presentCheck));
  sendView(res, status, { title: `Book ${pro.name}`, body: bookingPageView({ head, form: jobForm(pro, job, shown.typedRef), times, problem }) });
}

/** What the customer typed into the details, by field (empty when not given). */
export const CONTACT_FIELDS = ['customer_name', 'customer_phone', 'customer_email', 'address', 'zip', 'notes', 'access_details', 'start'];
export const contactOf = (body: Record<string, unknown>) => Object.fromEntries(CONTACT_FIELDS.map((k) => [k, formField(body, k).trim()]));

/** The page that says there is no such cleaner. */
export const noCleaner = (res: Response) =>
  sendView(res, 404, {
    title: 'No such cleaner',
    body: html`<p class="error" role="alert">There is no cleaner at this address. Check the link you were given.</p>
      <p><a href="/">Find a cleaner</a></p>`,
  });
