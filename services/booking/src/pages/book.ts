import type { Request, RequestHandler, Response } from 'express';
import { CHECKS_NOTE } from '@frontdesk/domain';
import { presentCheck, cleanerPage } from '@frontdesk/use-cases';
import { errorLine, esc, formField, inputFromQuery, sendPage } from '@frontdesk/http';
import { call, jobText, refusal, type Booked, type PageDeps, type Times } from './kit';
import { bookingSummary, jobForm, timesAndContact } from './views';

/** What a booking page is drawn with: the job so far, and after a refusal its status, its reason and what was typed. */
interface Shown {
  job: Record<string, string>;
  status?: number;
  error?: string;
  contact?: Record<string, string>;
}

/** `/book/<cleaner>`: the job form, then its price, open times and the customer's details; a refusal shown in words. */
async function bookingPage(d: PageDeps, req: Request, res: Response, extra: Shown): Promise<void> {
  const { job } = extra;
  const found = await cleanerPage(d.ctx.db, String(req.params.cleaner));
  if (!found)
    return sendPage(res, 404, 'No such cleaner', '<p class="error" role="alert">There is no cleaner at this address. Check the link you were given.</p>');
  const { pro, checks } = found;
  const head = `<p>Serves ZIP ${pro.service_zips.map(esc).join(', ')}.</p>${checks.map((c) => `<p class="note">${esc(presentCheck(c).summary)}</p>`).join('')}${
    checks.length ? `<p class="note">${esc(CHECKS_NOTE)}</p>` : ''
  }`;
  let body = jobForm(pro, job);
  let status = extra.status ?? 200;
  let error = extra.error ?? '';
  if (job.bedrooms !== undefined && job.bathrooms !== undefined) {
    const days = Math.min(21, Math.max(7, Number((req.query as Record<string, unknown>).days) || 7));
    try {
      const input = inputFromQuery(d.ops.available_times, { cleaner_id: pro.id, ...job, days: String(days) });
      const times = await call<Times>(d, d.ops.available_times, input, req);
      body += timesAndContact({ pro, job, times, days, contact: extra.contact ?? {} });
    } catch (err) {
      const e = refusal(res, err);
      status = e.status;
      error = e.message;
    }
  }
  sendPage(res, status, `Book ${pro.name}`, `${errorLine(error)}${head}${body}`);
}

export const getBookPage =
  (d: PageDeps): RequestHandler =>
  (req, res) =>
    bookingPage(d, req, res, { job: jobText(req.query) });

const CONTACT_FIELDS = ['customer_name', 'customer_phone', 'customer_email', 'address', 'zip', 'notes', 'access_details'];

/** The booking form sent: book_cleaning with what was typed; a refusal shows the page again with fresh times and the reason. */
export const postBookPage =
  (d: PageDeps): RequestHandler =>
  async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const job = jobText(body);
    const text = (name: string) => formField(body, name).trim();
    const contact = Object.fromEntries(CONTACT_FIELDS.map((k) => [k, text(k)]));
    try {
      const fields = { cleaner_id: String(req.params.cleaner), start: text('start'), expected_total: text('expected_total'), ...job, ...contact };
      const input = inputFromQuery(d.ops.book_cleaning, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '')));
      const booked = await call<Booked>(d, d.ops.book_cleaning, input, req);
      sendPage(
        res,
        201,
        'You are booked',
        `<p class="ok" role="status">${esc(booked.message)}</p>${bookingSummary(booked)}
<p>Your page for this booking, to check it, cancel it or add it to your calendar (keep the link; it is the only way in):</p>
<p><a id="manage-link" href="${esc(booked.manage_url)}">${esc(booked.manage_url)}</a></p>`,
      );
    } catch (err) {
      const e = refusal(res, err);
      // Fresh times with the reason: a time taken meanwhile is gone from the list.
      await bookingPage(d, req, res, { job, status: e.status, error: e.message, contact });
    }
  };
