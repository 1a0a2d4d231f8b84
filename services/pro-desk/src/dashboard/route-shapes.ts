import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '@frontdesk/domain';
import type { Pro } from '@frontdesk/db';
import { formRoute, type AnswerOf, type AnyOperation, type FieldLabels, type Html, type Problem } from '@frontdesk/http';
import { runForm, type DashboardDeps } from './deps';
import { dashNav, signedInPage, signedOf, type Section, type Signed } from './layout';
import { goneNotice } from './views/notices';
import type { Typed } from './views/typed-text';

/**
 * The two shapes of the dashboard's routes besides its plain pages: a form (POST, behind
 * `signedInForm`) that runs and answers 303, or shows its page again as typed after a
 * refusal; and a page or form about one thing its address names (a job, a crew, a webhook),
 * which says so with the way back when that thing is not this business's.
 */

/** What was typed into a form, as text, without the form token. */
const typed = (req: Request): Typed =>
  Object.fromEntries(Object.entries((req.body ?? {}) as Record<string, unknown>).filter(([k, v]) => k !== 'csrf' && typeof v === 'string')) as Typed;

const noProblem: Problem = { text: '' };

/** Runs an operation for the signed-in business with a refusal's sentence put in `words` (the owner's, for a kind of thing). */
export const runSaying =
  (words: (message: string) => string) =>
  <O extends AnyOperation<Pro>>(d: DashboardDeps, op: O, input: unknown, req: Request): Promise<AnswerOf<O>> =>
    runForm(d, { op, input, words }, req, signedOf(req).pro);

/** What a form's `act` and `page` are given. */
export interface Posted {
  s: Signed;
  values: Typed;
  req: Request;
}

export interface DashForm<T> {
  title: string;
  labels: FieldLabels;
  /** The section the form is in: its navigation, and the way back when what it is about is gone. */
  section: Section;
  /** What the form is about, found first (this business's only); a refusal if it is not there. */
  find(s: Signed, req: Request): Promise<T>;
  /** Does the work and answers where to go next (the 303's Location, from `doneAt`). */
  act(found: T, o: Posted & { res: Response }): Promise<string>;
  /** The page again after a refusal, with the problem; what it is about is looked up again. */
  page(o: Posted & { problem: Problem }): Promise<Html | { title: string; body: Html }> | Html | { title: string; body: Html };
}

/** A dashboard form: `find`, then `act`; a refusal shows `page` again as typed, or, when what the form is about is gone, the refusal with the way back. */
export function dashForm<T>(o: DashForm<T>): RequestHandler {
  return formRoute<Typed>({
    title: o.title,
    labels: o.labels,
    read: typed,
    async act(values, req, res) {
      const s = signedOf(req);
      return o.act(await o.find(s, req), { s, values, req, res });
    },
    async form(values, problem, req) {
      try {
        return await o.page({ s: signedOf(req), values, req, problem: problem ?? noProblem });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return goneNotice(err.message, o.section);
      }
    },
    nav: (req) => dashNav(signedOf(req), o.section),
  });
}

/** A form about nothing an address names (adding a crew, a webhook; the settings): nothing to find first. */
export const nothingToFind = (): Promise<null> => Promise.resolve(null);

/** A page about one thing its address names; when it is not this business's, the page answers the refusal's status with its sentence and the way back. */
export const pageAbout = (
  d: DashboardDeps,
  o: { section: Section; title: string; render(s: Signed, req: Request, res: Response): Promise<{ title?: string; body: Html }> },
): RequestHandler =>
  signedInPage(d, {
    section: o.section,
    async render(s, req, res) {
      try {
        return await o.render(s, req, res);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return { title: o.title, status: err.status, body: goneNotice(err.message, o.section) };
      }
    },
  });
