import { randomBytes } from 'node:crypto';
import type { Request, RequestHandler, Router } from 'express';
import {
  AppError,
  BOOK_AGAIN_DAYS,
  CLIENTS_PAGE,
  bookAgainWeek,
  clientBookedAgain,
  clientNotOnDashboard,
  formatLabel,
  inOwnerWords,
  labelledStarts,
  localDate,
  noJobToBookAgain,
  pickANewTime,
} from '@frontdesk/domain';
import { formField, html, inPeoplesWords, type Html, type Problem } from '@frontdesk/http';
import { runForm, type DashboardDeps } from './deps';
import { doneAt, doneOf, type Signed } from './layout';
import { dashForm, pageAbout } from './route-shapes';
import { signedInPage } from './layout';
import { doneNotice } from './views/notices';
import { bookAgainConfirmView, bookAgainTimesView, clientsListView, clientLink, clientView, twoColumns, type ClientHistory } from './views/clients';
import type { Typed } from './views/typed-text';

/**
 * The client list and a client's page (issue 35): list_clients and client_history as the
 * owner reads them, the notes form (update_client_notes) and "book again" (open_times, then
 * book_job after a confirmation), each run as an assistant would run it.
 */

const SECTION = '/dashboard/clients';
const queryText = (req: Request, name: string) => (typeof req.query[name] === 'string' ? req.query[name].slice(0, 500) : '');
/** The list's search, kept beside a client's page and through its forms (`?q=`). */
const searchOf = (req: Request) => queryText(req, 'q').slice(0, 200);

/** A page of the list for this search; a cursor that is not the list's shows the first page. */
async function listBody(d: DashboardDeps, s: Signed, req: Request, o: { current?: string } = {}): Promise<Html> {
  const q = searchOf(req);
  const input = { ...(q.trim() ? { search: q } : {}), limit: CLIENTS_PAGE.default };
  const after = queryText(req, 'after');
  const found = await runForm(d, { op: d.ops.list_clients, input: after ? { ...input, cursor: after } : input }, req, s.pro).catch((err: unknown) => {
    if (err instanceof AppError && after) return runForm(d, { op: d.ops.list_clients, input }, req, s.pro);
    throw err;
  });
  return clientsListView({ found, q, ...o });
}

/** The client the address names, with their history: this business's only, else the owner's refusal. */
async function historyOf(d: DashboardDeps, s: Signed, req: Request): Promise<ClientHistory> {
  try {
    return await runForm(d, { op: d.ops.client_history, input: { client_id: String(req.params.id) } }, req, s.pro);
  } catch (err) {
    throw err instanceof AppError ? clientNotOnDashboard() : err;
  }
}

const clientsPage = (d: DashboardDeps): RequestHandler =>
  signedInPage(d, { section: SECTION, render: async (s, req) => ({ title: 'Clients', body: await listBody(d, s, req) }) });

/** A client's page beside the list; after a refused notes form, with the notes as typed and the problem. */
async function clientBody(d: DashboardDeps, s: Signed, req: Request, o: { typed?: Typed; problem?: Problem } = {}) {
  const h = await historyOf(d, s, req);
  const detail = html`${doneNotice(o.problem ? null : doneOf(d, req))}${clientView(s, h, { ...o, q: searchOf(req) })}`;
  return { title: h.client.name ?? 'A client', body: twoColumns(detail, await listBody(d, s, req, { current: h.client.client_id })) };
}

const clientPage = (d: DashboardDeps): RequestHandler => pageAbout(d, { section: SECTION, title: 'Client', render: (s, req) => clientBody(d, s, req) });

const postNotes = (d: DashboardDeps): RequestHandler =>
  dashForm({
    title: 'Client',
    labels: { notes: 'Your notes' },
    section: SECTION,
    find: (s, req) => historyOf(d, s, req),
    async act(h, { s, values, req, res }) {
      const saved = await runForm(
        d,
        { op: d.ops.update_client_notes, input: { client_id: h.client.client_id, notes: values.notes ?? '' }, words: inOwnerWords },
        req,
        s.pro,
      );
      return doneAt(d, res, `${clientLink(h.client.client_id)}#notes`, { text: saved.message });
    },
    page: async ({ s, values, req, problem }) => clientBody(d, s, req, { typed: values, problem }),
  });

/** The visit "book again" repeats: the newest one not cancelled (else the newest), or the refusal that there is none. */
function visitToRepeat(h: ClientHistory) {
  const visits = [...h.past, ...[...h.upcoming].reverse()];
  const visit = visits.find((v) => v.status !== 'cancelled') ?? visits[0];
  if (!visit) throw noJobToBookAgain();
  return visit;
}

/** book_job's input for the client's visit again at `start`: the same job (one time) and address, the client's name and contact. */
function againInput(h: ClientHistory, start: string) {
  const v = visitToRepeat(h);
  const { sqft, ...job } = v.job;
  const c = h.client;
  return {
    ...job,
    ...(sqft === null ? {} : { sqft }),
    frequency: 'once' as const,
    start,
    customer_name: c.name ?? c.email ?? c.phone ?? '',
    ...(c.phone ? { customer_phone: c.phone } : {}),
    ...(c.email ? { customer_email: c.email } : {}),
    address: v.address,
    zip: v.zip,
  };
}

/** The open times of the week asked for the client's job again; a refusal of open_times is shown as the page's problem. */
async function bookAgainBody(d: DashboardDeps, s: Signed, req: Request, problem?: Problem): Promise<Html> {
  const h = await historyOf(d, s, req);
  const visit = visitToRepeat(h);
  const weeks = bookAgainWeek({ today: localDate(d.ctx.clock(), s.pro.timezone), from: queryText(req, 'from') || formField(req.body, 'from') });
  const { sqft, frequency: _once, ...job } = visit.job;
  const view = { client: h.client, visit, weeks, q: searchOf(req) };
  try {
    const input = { ...job, ...(sqft === null ? {} : { sqft }), date: weeks.from, days: BOOK_AGAIN_DAYS };
    const found = await runForm(d, { op: d.ops.open_times, input }, req, s.pro);
    return bookAgainTimesView({ ...view, times: labelledStarts(found.open_times, found.timezone), total: found.job.total, ...(problem ? { problem } : {}) });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return bookAgainTimesView({ ...view, times: [], total: null, problem: inPeoplesWords(err.message, {}) });
  }
}

const bookAgainPage = (d: DashboardDeps): RequestHandler =>
  pageAbout(d, { section: SECTION, title: 'Book again', render: async (s, req) => ({ title: 'Book again', body: await bookAgainBody(d, s, req) }) });

/** The confirmation of the picked time, with a key of its own so the form books once however often it is sent; without a pick, the times again. */
const bookAgainConfirmPage = (d: DashboardDeps): RequestHandler =>
  pageAbout(d, {
    section: SECTION,
    title: 'Book this cleaning?',
    async render(s, req) {
      const start = queryText(req, 'start');
      const picked = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(start) ? new Date(start) : null;
      if (!picked || Number.isNaN(picked.getTime())) return { title: 'Book again', body: await bookAgainBody(d, s, req, { text: pickANewTime().message }) };
      const h = await historyOf(d, s, req);
      const label = formatLabel(picked, s.pro.timezone, d.ctx.clock());
      const once = randomBytes(16).toString('base64url');
      const from = queryText(req, 'from');
      return {
        title: 'Book this cleaning?',
        body: bookAgainConfirmView(s, { client: h.client, visit: visitToRepeat(h), start, label, once, from, q: searchOf(req) }),
      };
    },
  });

/** Books the client again through book_job, once for the form's key; a refusal (the time was taken) shows the times again. */
const postBookAgain = (d: DashboardDeps): RequestHandler =>
  dashForm({
    title: 'Book again',
    labels: { start: 'The time' },
    section: SECTION,
    find: (s, req) => historyOf(d, s, req),
    async act(h, { s, values, req, res }) {
      const input = againInput(h, values.start ?? '');
      const booked = await runForm(d, { op: d.ops.book_job, input, words: inOwnerWords, once: values.once || undefined }, req, s.pro);
      const label = formatLabel(new Date(booked.start), s.pro.timezone, d.ctx.clock());
      return doneAt(d, res, clientLink(h.client.client_id), { text: clientBookedAgain(input.customer_name, label) });
    },
    page: async ({ s, req, problem }) => ({ title: 'Book again', body: await bookAgainBody(d, s, req, problem) }),
  });

/** The client pages (GET) and forms (POST, behind `signed`: the session and its form token), by address. */
export function clientRoutes(router: Router, d: DashboardDeps, signed: RequestHandler[]): void {
  const client = clientPage(d);
  router.get('/dashboard/clients', clientsPage(d));
  router.get('/dashboard/clients/:id', client);
  router.get('/dashboard/clients/:id/notes', client);
  router.post('/dashboard/clients/:id/notes', ...signed, postNotes(d));
  router.get('/dashboard/clients/:id/book', bookAgainPage(d));
  router.get('/dashboard/clients/:id/book/confirm', bookAgainConfirmPage(d));
  router.post('/dashboard/clients/:id/book', ...signed, postBookAgain(d));
}
