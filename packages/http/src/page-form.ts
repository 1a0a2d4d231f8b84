import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, aroundDaysLink, earlierDaysLink, laterDaysLink, moveDaysShown, timesByDay, type LocalDate, type MoveWindow } from '@frontdesk/domain';
import { setErrorHeaders } from './errors';
import { sendView } from './html';
import { html, type Html } from './template';

/**
 * Forms on pages, the way people meet them: a refusal comes back as the same form with what
 * was typed still in it, the field it is about marked (`aria-invalid`, the sentence next to
 * it), and the sentence in people's words: an operation's field path ("prices.base",
 * "service_zips[1]") is replaced by the label the person saw on the form.
 */

/** The labels of one form, by the operation's field path (`working_hours.monday`, `prices.base`). */
export type FieldLabels = Readonly<Record<string, string>>;

/** A refusal as a page shows it: the sentence, and the field it is about when it names one. */
export interface Problem {
  text: string;
  field?: string;
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
const nth = (i: number) => ORDINALS[i] ?? `number ${i + 1}`;

/**
 * A sentence in people's words: the field path a refusal starts with (`service_zips[1] must…`)
 * becomes the form's label ("ZIP codes you serve (the second entry) must…"), and the field is named
 * so the form can mark it. Paths the form has no label for are left out of the mark, never
 * shown raw: the sentence starts "This" instead.
 */
export function inPeoplesWords(message: string, labels: FieldLabels): Problem {
  const path = /^([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*|\[\d+\])*)(?=:? )/.exec(message)?.[1];
  if (!path) return { text: message };
  const parts = path.split(/(?=\.|\[)/);
  for (let n = parts.length; n > 0; n--) {
    const key = parts.slice(0, n).join('');
    const label = labels[key];
    if (!label) continue;
    const indexes = parts
      .slice(n)
      .filter((p) => p.startsWith('['))
      .map((p) => `the ${nth(Number(p.slice(1, -1)))} entry`);
    const named = indexes.length ? `${label} (${indexes.join(', ')})` : label;
    return { text: named + otherFieldsNamed(message.slice(path.length), labels, key), field: key };
  }
  return { text: `This${message.slice(path.length)}` };
}

/** Another field a sentence ends a clause with ("end must be after start.") by its label, as the person saw it. */
function otherFieldsNamed(rest: string, labels: FieldLabels, own: string): string {
  return rest.replace(/\b([a-z][a-z0-9_]*)(?=[.,;)]|$)/g, (word) => {
    const label = word === own ? undefined : labels[word];
    return label ? label.charAt(0).toLowerCase() + label.slice(1) : word;
  });
}

/** One labelled input; marked and explained when the problem is about it. */
export interface FieldSpec {
  label: string;
  name: string;
  value: string;
  type?: string;
  /** Extra attributes our own code writes (required, maxlength, inputmode). */
  attrs?: Html;
  hint?: string;
}

export function inputField(f: FieldSpec, problem?: Problem): Html {
  const id = `f-${f.name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  const wrong = problem?.field === f.name;
  const said = [f.hint ? `${id}-hint` : '', wrong ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<label for="${id}">${f.label}</label>${f.hint && html`<span class="note hint" id="${id}-hint">${f.hint}</span>`}
    <input
      id="${id}"
      name="${f.name}"
      type="${f.type ?? 'text'}"
      value="${f.value}"
      ${wrong && html` aria-invalid="true"`}${said && html` aria-describedby="${said}"`}${f.attrs ?? ''}
    />${wrong && html`<span class="error" id="${id}-error">${problem?.text}</span>`}`;
}

/** An open start as the operations answer it: the instant with its local offset, and its label. */
export interface StartChoice {
  start: string;
  label: string;
}

/**
 * Open starts to pick from, as every page offers them: one fieldset per local day (headed by
 * the label's day, "Wed, Nov 25", with the year when it is not this one), a radio per start
 * showing its time, none picked but `chosen`; on a phone a day at a time (the `days` style).
 */
export function startChoices(times: readonly StartChoice[], chosen?: string): Html {
  return html`<p class="note days-hint">One day at a time on a phone: swipe sideways for the next.</p>
    <div class="days">
      ${timesByDay(times).map(
        (d) =>
          html`<fieldset class="times">
            <legend>${d.day}</legend>
            ${d.times.map(
              (t) => html`<label><input type="radio" name="start" value="${t.start}" required${t.start === chosen && html` checked`} />${t.time}</label>`,
            )}
          </fieldset>`,
      )}
    </div>`;
}

/**
 * The days a move page lists (moveWindow), said above its times, and the days before and after
 * them as plain links (no script): `hrefOf` makes a link to the page showing the week from a
 * day, or without a day the days around the job again.
 */
export const moveDaysSaid = (w: MoveWindow, jobDay: LocalDate): Html => html`<p id="days-shown">${moveDaysShown(w, jobDay)}</p>`;
export function moveDaysLinks(w: MoveWindow, jobDay: LocalDate, hrefOf: (from?: LocalDate) => string): Html {
  return html`<nav class="move-days" aria-label="Other days">
    ${w.earlier !== null && html`<a href="${hrefOf(w.earlier)}">${earlierDaysLink(w)}</a>`}
    <a href="${hrefOf(w.later)}">${laterDaysLink(w)}</a>
    ${!w.around && html`<a href="${hrefOf()}">${aroundDaysLink(jobDay)}</a>`}
  </nav>`;
}

/** The sentence at the top of a form that was refused. */
export const problemLine = (problem: Problem | undefined): Html => (problem ? html`<p class="error" role="alert">${problem.text}</p>` : html``);

/**
 * One route for a form's POST: `act` does the work through the operations and answers where
 * to go next (a 303, so a reload shows the result and never repeats the action); a refusal
 * renders the form again, as typed, with the problem in people's words. Anything that is not
 * a refusal goes on to the app's error handler.
 */
export interface FormRoute<V> {
  title: string;
  labels: FieldLabels;
  /** The typed values, read from the posted form (kept as text: they go back into inputs). */
  read(req: Request): V;
  act(values: V, req: Request, res: Response): Promise<string>;
  /** The form again; with a title of its own where the page's heading names what it is about (a crew). */
  form(values: V, problem: Problem | undefined, req: Request): Html | { title: string; body: Html } | Promise<Html | { title: string; body: Html }>;
  /** The navigation above the heading, for pages that have one. */
  nav?: (req: Request) => Html;
}

export function formRoute<V>(route: FormRoute<V>): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const values = route.read(req);
    try {
      res.redirect(303, await route.act(values, req, res));
    } catch (err) {
      if (!(err instanceof AppError)) return next(err);
      try {
        setErrorHeaders(res, err);
        const problem = inPeoplesWords(err.message, route.labels);
        const shown = await route.form(values, problem, req);
        const page = 'body' in shown ? shown : { title: route.title, body: shown };
        sendView(res, err.status, { ...page, nav: route.nav?.(req) });
      } catch (renderErr) {
        next(renderErr);
      }
    }
  };
}
