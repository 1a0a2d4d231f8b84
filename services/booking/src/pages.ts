import express, { Router, type Request, type Response } from 'express';
import {
  AppError,
  CHECKS_NOTE,
  CLEAN_TYPE_LABELS,
  FREE_CANCEL_HOURS,
  FREQUENCY_LABELS,
  NotFoundError,
  icalendar,
  offeredAddOns,
  offeredCleanTypes,
  formatUsd,
  fromUsd,
} from '@frontdesk/domain';
import { bookingByToken, getPro, hashSecret, latestChecks, type Pro } from '@frontdesk/db';
import { presentCheck } from '@frontdesk/use-cases';
import {
  errorLine,
  esc,
  formField,
  formsFromThisSite,
  inputFromQuery,
  runOperation,
  sendPage,
  setErrorHeaders,
  type Operation,
  type RunOptions,
} from '@frontdesk/http';
import type { Customer } from './auth';
import type { AppContext } from './context';

/**
 * The customer's pages on the book host: the booking page every business links
 * (`/book/<cleaner>`), the page of one booking (`/manage/<token>`, with its .ics), and a
 * search by ZIP (`/find`). They run the very operations an assistant calls (available_times,
 * book_cleaning, booking_status, cancel_booking, find_cleaners) through the same runner, so
 * the rules, limits and sentences are the API's; a refusal is shown on the page in words.
 */
const PAGE_CLIENT = 'the booking page';
const visitor = (): Customer => ({ credential: 'public', email: null, scopes: new Set(['read', 'write']), user: { name: null, email: null, phone: null } });

/** The parts of the operations' answers the pages show (the answers' schemas say the rest). */
interface Line {
  label: string;
  amount: number;
}
interface Shown {
  start: string;
  label: string;
}
interface Price {
  total: number;
  summary: string;
  line_items: Line[];
}
interface Times {
  price: Price;
  open_times: Shown[];
}
interface Found {
  message?: string;
  cleaners: { cleaner_id: string; name: string; total: number; price: Price; next_open_times: Shown[]; checks: { summary: string }[] }[];
}
interface CustomerBooking {
  job: Record<string, unknown>;
  status: string;
  start: string;
  label: string;
  address: string;
  zip: string;
  notes: string | null;
  total: number;
  line_items: Line[];
  cleaner: { name: string; phone: string | null; email: string | null };
}
interface Booked extends CustomerBooking {
  message: string;
  manage_url: string;
}
const money = (usd: number) => formatUsd(fromUsd(usd));
const JOB_FIELDS = ['bedrooms', 'bathrooms', 'clean_type', 'add_ons', 'pets', 'sqft', 'frequency'] as const;

/** The job as the page's own form sent it: text per field, add-ons joined as a query string joins a list. */
function jobText(source: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of JOB_FIELDS) {
    const raw = source[field];
    const text = Array.isArray(raw) ? raw.filter((v) => typeof v === 'string').join(',') : typeof raw === 'string' ? raw : '';
    if (text.trim() !== '') out[field] = text.trim();
  }
  return out;
}

const option = (value: string, label: string, selected: boolean) => `<option value="${esc(value)}"${selected ? ' selected' : ''}>${esc(label)}</option>`;
/** The sizes a job can have, as the contract bounds them: 0 (studio) to 10 bedrooms, 1 to 10 bathrooms by halves. */
const bedroomOptions = (selected: string | undefined) =>
  Array.from({ length: 11 }, (_, n) => option(String(n), n === 0 ? 'Studio' : String(n), selected === String(n))).join('');
const bathroomOptions = (selected: string) =>
  Array.from({ length: 19 }, (_, i) => String(1 + i / 2))
    .map((b) => option(b, b, selected === b))
    .join('');

function jobForm(pro: Pro, job: Record<string, string>): string {
  const list = pro.price_list;
  const bedrooms = bedroomOptions(job.bedrooms);
  const bathrooms = bathroomOptions(job.bathrooms ?? '1');
  const types = offeredCleanTypes(list)
    .map((t) => option(t, CLEAN_TYPE_LABELS[t], (job.clean_type ?? 'standard') === t))
    .join('');
  const chosen = new Set((job.add_ons ?? '').split(','));
  const addOns = offeredAddOns(list)
    .map(
      (a) =>
        `<label><input type="checkbox" name="add_ons" value="${esc(a)}"${chosen.has(a) ? ' checked' : ''}>${esc(list.add_ons[a]!.label)} (+${money(list.add_ons[a]!.price_cents / 100)})</label><br>`,
    )
    .join('');
  const frequencies = Object.entries(FREQUENCY_LABELS)
    .map(([f, label]) => option(f, label, (job.frequency ?? 'once') === f))
    .join('');
  return `<form method="get" action="/book/${esc(pro.id)}"><h2>Your home</h2>
<label>Bedrooms <select name="bedrooms">${bedrooms}</select></label>
<label>Bathrooms <select name="bathrooms">${bathrooms}</select></label>
<label>Kind of clean <select name="clean_type">${types}</select></label>
${addOns ? `<fieldset><legend>Extras</legend>${addOns}</fieldset>` : ''}
<label><input type="checkbox" name="pets" value="true"${job.pets === 'true' ? ' checked' : ''}>Pets in the home</label><br>
<label>Size in square feet (optional) <input name="sqft" inputmode="numeric" value="${esc(job.sqft ?? '')}"></label>
<label>How often <select name="frequency">${frequencies}</select></label>
<button type="submit">See the price and open times</button></form>`;
}

function timesAndContact(pro: Pro, job: Record<string, string>, times: Times, days: number, contact: Record<string, string>): string {
  const price = times.price;
  const lines = price.line_items.map((l) => `<tr><td>${esc(l.label)}</td><td>${money(l.amount)}</td></tr>`).join('');
  const byDay = new Map<string, Shown[]>();
  for (const t of times.open_times) {
    const day = t.label.split(',').slice(0, 2).join(',');
    byDay.set(day, [...(byDay.get(day) ?? []), t]);
  }
  const groups = [...byDay.entries()]
    .map(
      ([day, list], d) =>
        `<fieldset class="times"><legend>${esc(day)}</legend>${list
          .map(
            (t, i) =>
              `<label><input type="radio" name="start" value="${esc(t.start)}" required${d === 0 && i === 0 ? ' checked' : ''}>${esc(t.label.split(', ').slice(2).join(', '))}</label>`,
          )
          .join(' ')}</fieldset>`,
    )
    .join('');
  const more =
    days < 21
      ? `<p><a href="/book/${esc(pro.id)}?${new URLSearchParams({ ...job, days: String(Math.min(21, days + 7)) }).toString()}">Show more days</a></p>`
      : '';
  const hidden = Object.entries(job)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
  const zips = pro.service_zips.map((z) => option(z, z, contact.zip === z)).join('');
  const field = (label: string, name: string, extra = '') => `<label>${esc(label)} <input name="${name}" value="${esc(contact[name] ?? '')}"${extra}></label>`;
  return `<h2>Your price: ${money(price.total)}</h2><p>${esc(price.summary)}</p>
<table>${lines}<tr><th scope="row">Total</th><td><strong>${money(price.total)}</strong></td></tr></table>
<p class="note">A firm price: everything included, no fees added.</p>
<form method="post" action="/book/${esc(pro.id)}">${hidden}<input type="hidden" name="expected_total" value="${esc(String(price.total))}">
<h2>Pick a time</h2>${groups || '<p>No open times in these days.</p>'}
${more}
<h2>Your details</h2>
${field('Your name', 'customer_name', ' required maxlength="100" autocomplete="name"')}
${field('Phone', 'customer_phone', ' type="tel" maxlength="30" autocomplete="tel"')}
${field('Email', 'customer_email', ' type="email" maxlength="200" autocomplete="email"')}
<p class="note">Give a phone or an email (or both) so the cleaner can reach you.</p>
${field('Street address', 'address', ' required maxlength="300" autocomplete="street-address"')}
<label>ZIP <select name="zip">${zips}</select></label>
<label>Notes for the cleaner (optional) <textarea name="notes" rows="2" maxlength="500">${esc(contact.notes ?? '')}</textarea></label>
<label>How to get in: door code, key, parking (optional) <textarea name="access_details" rows="2" maxlength="500">${esc(contact.access_details ?? '')}</textarea></label>
${times.open_times.length ? '<button type="submit">Book this cleaning</button>' : ''}</form>`;
}

function bookingSummary(b: CustomerBooking): string {
  const lines = b.line_items.map((l) => `<tr><td>${esc(l.label)}</td><td>${money(l.amount)}</td></tr>`).join('');
  const reach = [b.cleaner.phone, b.cleaner.email]
    .filter((v): v is string => Boolean(v))
    .map(esc)
    .join(' · ');
  return `<p><strong>${esc(b.label)}</strong> with <strong>${esc(b.cleaner.name)}</strong>${reach ? ` (${reach})` : ''}.</p>
<p>${esc(b.address)}, ${esc(b.zip)}</p>
<table>${lines}<tr><th scope="row">Total</th><td><strong>${money(b.total)}</strong></td></tr></table>`;
}

export function customerPages(ctx: AppContext, operations: Operation<Customer>[], run: RunOptions<Customer>): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const op = (name: string) => operations.find((o) => o.name === name)!;
  const call = async <T>(name: string, input: unknown, req: Request) =>
    (await runOperation(op(name), input, req, visitor(), { ...run, clientName: PAGE_CLIENT })).result as T;
  router.post(['/book/*path', '/manage/*path'], formsFromThisSite(ctx.config.publicUrl));

  /** A refusal as the page says it: its sentence, with the headers the API would send. */
  const refusal = (res: Response, err: unknown) => {
    if (!(err instanceof AppError)) throw err;
    setErrorHeaders(res, err);
    return err;
  };

  router.get('/find', async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const job = jobText(q);
    const zip = typeof q.zip === 'string' ? q.zip.trim() : '';
    try {
      const found = await call<Found>('find_cleaners', inputFromQuery(op('find_cleaners'), { zip, ...job }), req);
      const items = found.cleaners
        .map(
          (c) => `<div class="job"><h2>${esc(c.name)}: ${money(c.total)}</h2><p>${esc(c.price.summary)}</p>
${c.next_open_times[0] ? `<p>Next open: ${esc(c.next_open_times[0].label)}</p>` : '<p>No open times in the coming week.</p>'}
${c.checks.map((k) => `<p class="note">${esc(k.summary)}</p>`).join('')}
<p><a href="/book/${esc(c.cleaner_id)}?${new URLSearchParams(job).toString()}">See times and book ${esc(c.name)}</a></p></div>`,
        )
        .join('');
      sendPage(
        res,
        200,
        `Cleaners for ${zip}`,
        `${items || `<p>${esc(found.message ?? 'No cleaner serves this ZIP yet.')}</p>`}<p class="note">${esc(CHECKS_NOTE)}</p><p><a href="/">Search again</a></p>`,
      );
    } catch (err) {
      const e = refusal(res, err);
      sendPage(res, e.status, 'Find a cleaner', `${errorLine(e.message)}<p><a href="/">Search again</a></p>`);
    }
  });

  const bookingPage = async (
    req: Request,
    res: Response,
    job: Record<string, string>,
    extra: { status?: number; error?: string; contact?: Record<string, string> } = {},
  ) => {
    const pro = await getPro(ctx.db, String(req.params.cleaner));
    if (!pro)
      return sendPage(res, 404, 'No such cleaner', '<p class="error" role="alert">There is no cleaner at this address. Check the link you were given.</p>');
    const checks = (await latestChecks(ctx.db, [pro.id])).get(pro.id) ?? [];
    const head = `<p>Serves ZIP ${pro.service_zips.map(esc).join(', ')}.</p>${checks.map((c) => `<p class="note">${esc(presentCheck(c).summary)}</p>`).join('')}${
      checks.length ? `<p class="note">${esc(CHECKS_NOTE)}</p>` : ''
    }`;
    let body = jobForm(pro, job);
    let status = extra.status ?? 200;
    let error = extra.error ?? '';
    if (job.bedrooms !== undefined && job.bathrooms !== undefined) {
      const q = req.query as Record<string, unknown>;
      const days = Math.min(21, Math.max(7, Number(q.days) || 7));
      try {
        const times = await call<Times>('available_times', inputFromQuery(op('available_times'), { cleaner_id: pro.id, ...job, days: String(days) }), req);
        body += timesAndContact(pro, job, times, days, extra.contact ?? {});
      } catch (err) {
        const e = refusal(res, err);
        status = e.status;
        error = e.message;
      }
    }
    sendPage(res, status, `Book ${pro.name}`, `${errorLine(error)}${head}${body}`);
  };

  router.get('/book/:cleaner', (req, res) => bookingPage(req, res, jobText(req.query as Record<string, unknown>)));

  router.post('/book/:cleaner', form, async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const job = jobText(body);
    const text = (name: string) => formField(body, name).trim();
    const contact = Object.fromEntries(
      ['customer_name', 'customer_phone', 'customer_email', 'address', 'zip', 'notes', 'access_details'].map((k) => [k, text(k)]),
    );
    try {
      const fields = { cleaner_id: String(req.params.cleaner), start: text('start'), expected_total: text('expected_total'), ...job, ...contact };
      const input = inputFromQuery(op('book_cleaning'), Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '')));
      const booked = await call<Booked>('book_cleaning', input, req);
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
      await bookingPage(req, res, job, { status: e.status, error: e.message, contact });
    }
  });

  const manage = async (req: Request, res: Response, notice = '') => {
    const token = String(req.params.token);
    try {
      const b = await call<CustomerBooking>('booking_status', { manage_token: token }, req);
      const live = b.status === 'booked' && new Date(b.start).getTime() > ctx.clock().getTime();
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
      sendPage(
        res,
        e.status,
        'Your cleaning',
        `${errorLine(e instanceof NotFoundError || e.status === 400 ? 'No booking matches this link. Check that it was copied whole.' : e.message)}`,
      );
    }
  };

  router.get('/manage/:token', (req, res) => manage(req, res));

  router.post('/manage/:token/cancel', form, async (req, res) => {
    const token = String(req.params.token);
    try {
      const b = await call<CustomerBooking>('booking_status', { manage_token: token }, req);
      const late = new Date(b.start).getTime() - ctx.clock().getTime() < FREE_CANCEL_HOURS * 3_600_000;
      if (formField(req.body, 'confirm') !== 'yes') {
        return sendPage(
          res,
          200,
          'Cancel this cleaning?',
          `${late ? `<p class="error" role="alert">This cleaning starts within ${FREE_CANCEL_HOURS} hours: it still cancels, but ${esc(b.cleaner.name)} may charge under their own policy.</p>` : ''}
${bookingSummary(b)}
<form method="post" action="/manage/${esc(token)}/cancel"><input type="hidden" name="confirm" value="yes"><button type="submit">Yes, cancel it</button></form>
<p><a href="/manage/${esc(token)}">Keep it</a></p>`,
        );
      }
      const done = await call<{ message: string }>('cancel_booking', { manage_token: token }, req);
      await manage(req, res, `<p class="ok" role="status">${esc(done.message)}</p>`);
    } catch (err) {
      const e = refusal(res, err);
      sendPage(res, e.status, 'Your cleaning', errorLine(e.message));
    }
  });

  /** The open times a booking could move to: its cleaner's, for its own job, two weeks ahead. */
  const movePage = async (req: Request, res: Response, status = 200, error = '') => {
    const token = String(req.params.token);
    try {
      const b = await call<CustomerBooking & { cleaner: { cleaner_id: string } }>('booking_status', { manage_token: token }, req);
      const job = Object.fromEntries(Object.entries(b.job).filter(([, v]) => v !== null && !(Array.isArray(v) && v.length === 0)));
      const times = await call<Times>('available_times', { cleaner_id: b.cleaner.cleaner_id, ...job, days: 14 }, req);
      const options = times.open_times
        .map((t, i) => `<label><input type="radio" name="start" value="${esc(t.start)}" required${i === 0 ? ' checked' : ''}>${esc(t.label)}</label>`)
        .join(' ');
      sendPage(
        res,
        status,
        'Move your cleaning',
        `${errorLine(error)}<p>Now: <strong>${esc(b.label)}</strong> with ${esc(b.cleaner.name)}. The price stays the same.</p>
<form method="post" action="/manage/${esc(token)}/move"><fieldset class="times"><legend>New time</legend>${options || 'No open times in the next two weeks.'}</fieldset>
${times.open_times.length ? '<button type="submit">Move it</button>' : ''}</form><p><a href="/manage/${esc(token)}">Keep it as it is</a></p>`,
      );
    } catch (err) {
      const e = refusal(res, err);
      sendPage(res, e.status, 'Move your cleaning', errorLine(e.message));
    }
  };
  router.get('/manage/:token/move', (req, res) => movePage(req, res));
  router.post('/manage/:token/move', form, async (req, res) => {
    const token = String(req.params.token);
    try {
      const moved = await call<{ message: string }>('reschedule_booking', { manage_token: token, start: formField(req.body, 'start') }, req);
      await manage(req, res, `<p class="ok" role="status">${esc(moved.message)}</p>`);
    } catch (err) {
      const e = refusal(res, err);
      await movePage(req, res, e.status, e.message);
    }
  });

  router.get('/manage/:token/booking.ics', async (req, res) => {
    const token = String(req.params.token);
    const found = /^[A-Za-z0-9_-]{43}$/.test(token) ? await bookingByToken(ctx.db, hashSecret(token)) : undefined;
    if (!found) return sendPage(res, 404, 'Your cleaning', errorLine('No booking matches this link. Check that it was copied whole.'));
    const { booking: b, pro } = found;
    const ics = icalendar({
      name: `Cleaning by ${pro.name}`,
      zone: pro.timezone,
      now: ctx.clock(),
      events: [
        {
          uid: `${b.id}@${new URL(ctx.config.publicUrl).host}`,
          start: b.starts_at,
          end: b.ends_at,
          summary: `${CLEAN_TYPE_LABELS[b.clean_type]} by ${pro.name}`,
          location: `${b.address}, ${b.zip}`,
          description: [
            `Total: ${formatUsd(b.price_cents)}`,
            pro.phone ? `Cleaner's phone: ${pro.phone}` : '',
            pro.email ? `Cleaner's email: ${pro.email}` : '',
          ]
            .filter(Boolean)
            .join('\n'),
          cancelled: b.status === 'cancelled',
          sequence: b.status === 'booked' ? 0 : 1,
          updatedAt: b.updated_at,
        },
      ],
    });
    res
      .status(200)
      .type('text/calendar; charset=utf-8')
      .setHeader('Cache-Control', 'no-store')
      .setHeader('Content-Disposition', 'attachment; filename="cleaning.ics"')
      .send(ics);
  });
  return router;
}

/** The book host's front door: what it is, a search by ZIP, and where assistants and people go next. */
export function bookFrontDoor(ctx: Pick<AppContext, 'config'>) {
  const url = ctx.config.publicUrl;
  const bedrooms = bedroomOptions('2');
  const bathrooms = bathroomOptions('1');
  return {
    title: 'Find a house cleaner',
    html: `<p>Book a house cleaner near you at a firm price, here or through your AI assistant.</p>
<form method="get" action="/find"><label>Your ZIP code <input name="zip" required inputmode="numeric" pattern="[0-9]{5}" maxlength="5" autocomplete="postal-code"></label>
<label>Bedrooms <select name="bedrooms">${bedrooms}</select></label><label>Bathrooms <select name="bathrooms">${bathrooms}</select></label>
<button type="submit">Find cleaners</button></form>
<h2>For assistants</h2><ul><li>MCP: <code>${esc(url)}/mcp</code> (sign in with OAuth, a personal key, or the shared public key)</li>
<li>REST: <a href="/docs">API reference</a> and <a href="/openapi.json">/openapi.json</a></li>
<li>A personal key of your own: <a href="${esc(ctx.config.proDeskUrl)}/key">${esc(ctx.config.proDeskUrl)}/key</a></li></ul>
<h2>For cleaning businesses</h2><p><a href="${esc(ctx.config.proDeskUrl)}/signup">Sign your business up</a> to be found here.</p>`,
  };
}
