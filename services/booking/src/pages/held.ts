import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { AppError, HOLD_NOT_YOURS, formatLabel, formatLocalIso, heldOnPage, heldTimeGone, normalizeJob, sameJob } from '@frontdesk/domain';
import { cleanerPage, heldFor, heldUntil, holdsTakenOf, liveHoldsOf, presentCheck, presentHold } from '@frontdesk/use-cases';
import {
  formField,
  html,
  inputFromQuery,
  problemLine,
  sendView,
  setErrorHeaders,
  validateInput,
  visitIn,
  visitOf,
  type Holder,
  type Problem,
} from '@frontdesk/http';
import { visitorCredential, visitorHoldClaim } from '../operations/holds';
import { LABELS, bookingPage, cleanerOf, contactOf, noCleaner } from './book-page';
import { cleanerHead, heldDetails, heldGone } from './book-view';
import { jobOfAnswer, jobText } from './job-fields';
import { callAs, customerProblem, type PageDeps } from './page-call';
import { keepTyped, typedIn } from './shown-once';

/**
 * The booking page's hold: picking a time takes a hold on it (hold_time, as the browser's
 * visit: no other visitor can book or release it) and shows the details step, which books
 * with that hold. A visitor keeps one held time per cleaner: picking the same time again uses
 * the hold it has, picking another lets the first go.
 */

const secure = (d: PageDeps) => d.ctx.config.publicUrl.startsWith('https://');
const heldAt = (cleaner: string, holdId: string) => `/book/${encodeURIComponent(cleaner)}/held/${encodeURIComponent(holdId)}`;

/**
 * Once per pick: the same form sent twice at once (a double click) takes one hold. `taken`, how
 * many holds the visitor had taken here before, makes picking the same time again after its
 * hold was let go or ran out a new pick, never the answer of the old one.
 */
const holdKey = (cleaner: string, input: object, before: string[], taken: number) =>
  `page-hold:${createHash('sha256')
    .update(JSON.stringify([cleaner, input, before, taken]))
    .digest('hex')}`;

/** The visitor's hold on this cleaner for this pick, taken now unless it already has it (another of its holds there let go). */
async function holdThePick(d: PageDeps, req: Request, visit: Holder, input: { cleaner_id: string; start: string } & Parameters<typeof normalizeJob>[0]) {
  const credential = visitorCredential(visit);
  // Counted before the live ones are read: a hold the same pick's twin takes in between is then found as `same`.
  const taken = await holdsTakenOf(d.ctx.db, input.cleaner_id, credential);
  const mine = await liveHoldsOf(d.ctx.db, input.cleaner_id, credential);
  const start = Date.parse(input.start);
  const same = mine.find((h) => h.starts_at.getTime() === start && sameJob(h.job, normalizeJob(input)));
  if (same) return same.id;
  for (const h of mine) await callAs(d, d.ops.release_hold, { hold_id: h.id }, { req, visit });
  const key = holdKey(
    input.cleaner_id,
    input,
    mine.map((h) => h.id),
    taken,
  );
  const held = await callAs(d, d.ops.hold_time, input, { req, visit, idempotencyKey: key });
  return held.hold_id;
}

/** What was typed, kept for this visit on this cleaner's page for the next step's address: its reference, if anything was typed. */
const keptTyped = (d: PageDeps, req: Request, res: Response, contact: Record<string, string>) =>
  keepTyped({ ctx: d.ctx, slot: d.shown.typed, req, res }, cleanerOf(req), contact);

/**
 * A time picked: held for this browser's visit, then a 303 to the details step (what was typed
 * before, if anything, sealed in a cookie the address refers to), so a reload never holds
 * twice. A refusal shows the open times again with the reason, what was typed kept.
 */
export const postHold =
  (d: PageDeps): RequestHandler =>
  async (req, res, next) => {
    const body = req.body as Record<string, unknown>;
    const job = jobText(body);
    const contact = contactOf(body);
    const cleaner = cleanerOf(req);
    try {
      const fields = { cleaner_id: cleaner, start: formField(body, 'start').trim(), ...job };
      const input = validateInput(d.ops.hold_time, inputFromQuery(d.ops.hold_time, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== ''))));
      const visit = visitOf(req, res, secure(d));
      const holdId = await holdThePick(d, req, visit, input);
      const ref = keptTyped(d, req, res, contact);
      res.redirect(303, `${heldAt(cleaner, holdId)}${ref ? `?typed=${ref}` : ''}`);
    } catch (err) {
      if (!(err instanceof AppError)) return next(err);
      setErrorHeaders(res, err);
      const typedRef = keptTyped(d, req, res, contact);
      await bookingPage(d, req, res, { job, contact, typedRef, refused: { status: err.status, problem: customerProblem(err, LABELS) } });
    }
  };

/**
 * "Pick another time" on the details step: the held time let go (it is open again, to this
 * customer too), then a 303 to the open times for the same job, what was typed kept for the
 * next pick.
 */
export const postAnotherTime =
  (d: PageDeps): RequestHandler =>
  async (req, res, next) => {
    const body = req.body as Record<string, unknown>;
    const holdId = formField(body, 'hold_id').trim();
    const visit = visitIn(req);
    try {
      if (visit && holdId) await callAs(d, d.ops.release_hold, { hold_id: holdId }, { req, visit });
    } catch (err) {
      // Gone already, or not this visit's: there is nothing to let go.
      if (!(err instanceof AppError)) return next(err);
    }
    const ref = keptTyped(d, req, res, contactOf(body));
    const query = new URLSearchParams({ ...jobText(body), ...(ref && { typed: ref }) });
    res.redirect(303, `/book/${encodeURIComponent(cleanerOf(req))}?${query.toString()}`);
  };

/**
 * The details step, or the held time gone: its reason in words and the nearest open times to
 * hold instead; what was typed is kept either way. Another visitor's hold is not shown.
 */
export async function showHeld(
  d: PageDeps,
  req: Request,
  res: Response,
  o: { holdId: string; contact: Record<string, string>; typedRef?: string; refused?: { status: number; problem: Problem } },
): Promise<void> {
  const visit = visitIn(req);
  const now = d.ctx.clock();
  const found = visit && (await heldFor(d.ctx.db, visitorHoldClaim(visit, o.holdId), now));
  if (!found || found.pro.id !== cleanerOf(req)) {
    if (!found && !(await cleanerPage(d.ctx.db, cleanerOf(req)))) return noCleaner(res);
    return sendView(res, 404, {
      title: 'Not held for you',
      body: html`<p class="error" role="alert">${HOLD_NOT_YOURS}</p>
        <p><a href="/book/${encodeURIComponent(cleanerOf(req))}">Pick a time</a></p>`,
    });
  }
  const { pro, hold, gone, nearest } = found;
  const shown = presentHold(hold, { timezone: pro.timezone, crewName: '' });
  const head = cleanerHead(pro, ((await cleanerPage(d.ctx.db, pro.id))?.checks ?? []).map(presentCheck));
  if (gone) {
    const problem = { text: heldTimeGone(gone, shown.label) };
    const offered = nearest.map((s) => ({ start: formatLocalIso(s, pro.timezone), label: formatLabel(s, pro.timezone, now) }));
    const typedRef = o.typedRef ?? keptTyped(d, req, res, o.contact);
    const status = o.refused?.status ?? 200;
    return sendView(res, status, {
      title: `Book ${pro.name}`,
      body: html`${problemLine(problem)}${head}${heldGone({ pro, job: jobOfAnswer(shown.job), nearest: offered, contact: o.contact, typedRef, problem })}`,
    });
  }
  const said = heldOnPage(shown.label, heldUntil(hold, pro.timezone));
  sendView(res, o.refused?.status ?? 200, {
    title: `Book ${pro.name}`,
    body: html`${problemLine(o.refused?.problem)}${head}${heldDetails({ pro, hold: shown, said, contact: o.contact, problem: o.refused?.problem })}`,
  });
}

/** `/book/<cleaner>/held/<hold>`: the details step for the time this browser holds, with what it typed before if it did. */
export const getHeld =
  (d: PageDeps): RequestHandler =>
  async (req, res) => {
    const typed = typedIn({ ctx: d.ctx, slot: d.shown.typed, req }, cleanerOf(req));
    await showHeld(d, req, res, { holdId: String(req.params.hold), contact: typed?.contact ?? {}, typedRef: typed?.ref });
  };
