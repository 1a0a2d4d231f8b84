import type { Request, RequestHandler, Response } from 'express';
import { AppError, NotFoundError, inCustomerWords, labelledStarts, localDate, moveWindow, withinFreeCancel } from '@frontdesk/domain';
import { bookingCalendar } from '@frontdesk/use-cases';
import { formField, formRoute, html, problemLine, sendView, type Html, type Problem } from '@frontdesk/http';
import { MANAGE_TOKEN_PATTERN } from '../operations/bookings';
import type { Status, Visit } from './answers';
import { repeats } from './booking-markup';
import { call, refusal, tokenOf, type PageDeps } from './page-call';
import { noticeHolder, type Notice } from './shown-once';
import { manageView } from './manage-view';
import { cancelView } from './cancel-view';
import { moveView } from './move-view';

const NO_SUCH_LINK = 'No booking matches this link. Check that it was copied whole.';
const LABELS = { start: 'The new time', visit_id: 'The visit' };

/** The booking a manage link opens, and the visit a page acts on: the one named, or the booking itself. */
interface Opened {
  token: string;
  b: Status;
  series: boolean;
  visit: Visit;
  /** The visit and every later booked one (a series), or the booking alone. */
  following: Visit[];
}

async function open(d: PageDeps, req: Request, visitId: string): Promise<Opened> {
  const token = tokenOf(req);
  const b = await call(d, d.ops.booking_status, { manage_token: token }, req);
  const series = Boolean(b.series_id && repeats(b.job.frequency));
  const own: Visit = { booking_id: b.booking_id, status: b.status, start: b.start, label: b.label };
  const visit =
    (series && b.series_visits.find((v) => v.booking_id === visitId)) || (series ? b.series_visits.find((v) => v.status === 'booked') : undefined) || own;
  const after = new Date(visit.start).getTime();
  const following = series ? b.series_visits.filter((v) => v.status === 'booked' && new Date(v.start).getTime() >= after) : [visit];
  return { token, b, series, visit, following };
}

/** A manage link that opens nothing, or a page that cannot be shown: the sentence, never JSON. */
function lost(res: Response, err: unknown, title: string): void {
  const e = refusal(res, err);
  const text = e instanceof NotFoundError || e.status === 400 ? NO_SUCH_LINK : inCustomerWords(e.message);
  sendView(res, e.status === 400 ? 404 : e.status, {
    title,
    body: html`${problemLine({ text })}
      <p><a href="/">Find a cleaner</a></p>`,
  });
}

/** `/manage/<token>`: the booking the link opens (or its series and visits), with what just happened to it. */
export const getManagePage =
  (d: PageDeps): RequestHandler =>
  async (req, res) => {
    try {
      const { token, b, series } = await open(d, req, '');
      const ref = typeof req.query.notice === 'string' ? req.query.notice : '';
      const kept = ref ? d.shown.notice.value<Notice>(req, noticeHolder(token), ref, d.ctx.clock()) : null;
      const notice = kept ? inCustomerWords(kept.said) : undefined;
      sendView(res, 200, { title: series ? 'Your cleanings' : 'Your cleaning', body: manageView({ token, b, now: d.ctx.clock(), notice }) });
    } catch (err) {
      lost(res, err, 'Your cleaning');
    }
  };

const visitOf = (req: Request) => (typeof req.query.visit === 'string' ? req.query.visit : formField(req.body, 'visit'));

/** The cancel confirmation: exactly which visits each choice cancels, and the free-cancel window. */
async function cancelPage(d: PageDeps, req: Request, problem?: Problem) {
  const o = await open(d, req, visitOf(req));
  const late = !withinFreeCancel(new Date(o.visit.start), d.ctx.clock());
  return cancelView({ token: o.token, b: o.b, visit: o.visit, following: o.following, late, problem }, o.series);
}

export const getCancelPage =
  (d: PageDeps): RequestHandler =>
  async (req, res) => {
    try {
      sendView(res, 200, { title: 'Cancel?', body: await cancelPage(d, req) });
    } catch (err) {
      lost(res, err, 'Cancel?');
    }
  };

/** Where a manage page goes after acting: back to the booking, with the operation's sentence shown once. */
function backWithNotice(d: PageDeps, res: Response, token: string, said: string): string {
  const ref = d.shown.notice.keep(res, noticeHolder(token), { said } satisfies Notice, d.ctx.clock());
  return `/manage/${token}?notice=${ref}`;
}

/** A form's page drawn again after a refusal; a link that opens nothing says so instead of failing. */
const orLost = (page: Promise<Html>, problem?: Problem): Promise<Html> =>
  page.catch((err: unknown) => {
    if (!(err instanceof AppError)) throw err;
    return problemLine({ text: err instanceof NotFoundError || err.status === 400 ? NO_SUCH_LINK : inCustomerWords(problem?.text ?? err.message) });
  });
const said = (problem: Problem | undefined) => problem && { ...problem, text: inCustomerWords(problem.text) };

/** What a cancel or a move form says of its visit: which one (none: the booking), and whether the later ones go with it. */
const visitChosen = (req: Request) => ({ visit: formField(req.body, 'visit'), later: formField(req.body, 'scope') === 'later' });
/** The visit part of cancel_booking's and reschedule_booking's input, from the link's token and the form's choice. */
const visitInput = (token: string, v: { visit: string; later: boolean }) => ({
  manage_token: token,
  ...(v.visit && { visit_id: v.visit }),
  ...(v.later && { and_following: true }),
});

/** The visit chosen and the form's own fields, as a cancel or a move form sends them. */
type VisitForm<V> = V & ReturnType<typeof visitChosen>;

/**
 * A cancel or a move form: its own fields beside the visit chosen; `act` runs the operation for
 * the link's token (or names a page to go to instead), then the manage page shows its sentence once.
 */
const visitForm = <V extends object>(
  d: PageDeps,
  o: {
    title: string;
    read: (req: Request) => V;
    act: (token: string, v: VisitForm<V>, req: Request) => Promise<{ message: string } | string>;
    page: (v: VisitForm<V>, problem: Problem | undefined, req: Request) => Promise<Html>;
  },
): RequestHandler =>
  formRoute<VisitForm<V>>({
    title: o.title,
    labels: LABELS,
    read: (req) => ({ ...o.read(req), ...visitChosen(req) }),
    async act(v, req, res) {
      const token = tokenOf(req);
      const done = await o.act(token, v, req);
      return typeof done === 'string' ? done : backWithNotice(d, res, token, done.message);
    },
    form: (v, problem, req) => orLost(o.page(v, said(problem), req), problem),
  });

/** "Yes, cancel": cancel_booking for the visit (and every later one when chosen), then back to the booking. */
export const postCancel = (d: PageDeps): RequestHandler =>
  visitForm(d, {
    title: 'Cancel?',
    read: (req) => ({ confirm: formField(req.body, 'confirm') }),
    act: (token, v, req) =>
      v.confirm === 'yes'
        ? call(d, d.ops.cancel_booking, visitInput(token, v), req)
        : Promise.resolve(`/manage/${token}/cancel${v.visit ? `?visit=${encodeURIComponent(v.visit)}` : ''}`),
    page: (_v, problem, req) => cancelPage(d, req, problem),
  });

/** The visits of the series just before and after the one to move (cancelled ones hold no place), as labels. */
function neighbours(o: Opened): { before?: string; after?: string } {
  if (!o.series) return {};
  const placed = o.b.series_visits.filter((v) => v.status !== 'cancelled');
  const at = placed.findIndex((v) => v.booking_id === o.visit.booking_id);
  if (at < 0) return {};
  return { before: placed[at - 1]?.label, after: placed[at + 1]?.label };
}

/** A week picked with the move page's links (`from`, a day), kept in its form for a refusal's page. */
const fromOf = (req: Request) => (typeof req.query.from === 'string' ? req.query.from : formField(req.body, 'from')) || undefined;

/**
 * The open times a visit could move to: its cleaner's, for its own job, on the days around the
 * visit's own date (moveWindow) or the week picked; what was picked kept.
 */
async function movePage(d: PageDeps, req: Request, pick: { chosen?: string; problem?: Problem }) {
  const o = await open(d, req, visitOf(req));
  const job = Object.fromEntries(Object.entries(o.b.job).filter(([, v]) => v !== null && !(Array.isArray(v) && v.length === 0)));
  const now = d.ctx.clock();
  const jobDay = o.visit.start.slice(0, 10);
  const days = moveWindow({ jobDate: jobDay, today: localDate(now, o.b.timezone), from: fromOf(req) });
  const times = await call(d, d.ops.available_times, { cleaner_id: o.b.cleaner.cleaner_id, ...job, date: days.from, days: days.days }, req);
  const late = !withinFreeCancel(new Date(o.visit.start), now);
  const shown = labelledStarts(times.open_times, times.timezone);
  return moveView(
    { token: o.token, b: o.b, visit: o.visit, following: o.following, times: shown, days, jobDay, neighbours: neighbours(o), late, ...pick },
    o.series,
  );
}

export const getMovePage =
  (d: PageDeps): RequestHandler =>
  async (req, res) => {
    try {
      sendView(res, 200, { title: 'Move your cleaning', body: await movePage(d, req, {}) });
    } catch (err) {
      lost(res, err, 'Move your cleaning');
    }
  };

/** The new time sent: reschedule_booking for the visit (and the later ones when chosen), then back to the booking. */
export const postMove = (d: PageDeps): RequestHandler =>
  visitForm(d, {
    title: 'Move your cleaning',
    read: (req) => ({ start: formField(req.body, 'start') }),
    act: (token, v, req) => call(d, d.ops.reschedule_booking, { ...visitInput(token, v), start: v.start }, req),
    page: (v, problem, req) => movePage(d, req, { chosen: v.start || undefined, problem }),
  });

const TOKEN = new RegExp(MANAGE_TOKEN_PATTERN);

/** The booking as an .ics file, read fresh, for the customer's own calendar. */
export const getBookingIcs =
  (d: PageDeps): RequestHandler =>
  async (req, res) => {
    const token = tokenOf(req);
    const host = new URL(d.ctx.config.publicUrl).host;
    const ics = TOKEN.test(token) ? await bookingCalendar(d.ctx.db, token, host, d.ctx.clock()) : undefined;
    if (!ics) return sendView(res, 404, { title: 'Your cleaning', body: problemLine({ text: NO_SUCH_LINK }) });
    res
      .status(200)
      .type('text/calendar; charset=utf-8')
      .setHeader('Cache-Control', 'no-store')
      .setHeader('Content-Disposition', 'attachment; filename="cleaning.ics"')
      .send(ics);
  };
