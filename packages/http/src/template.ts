/**
 * The one way a page makes HTML: the `html` tagged template. Its result is `Html`, a branded
 * string; every value put into it that is not already `Html` is escaped (text and attribute
 * values alike), so markup reaches a page only through a template written in our source.
 *
 *   html`<p title="${name}">${name}</p>`   // name is escaped twice over, once per place
 *   html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`   // lists of Html join as they are
 *
 * `null`, `undefined` and `false` render nothing, so `${cond && html`…`}` reads naturally.
 */
declare const HTML: unique symbol;
export type Html = { readonly [HTML]: true; readonly text: string };

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Text made safe for an element's content or a quoted attribute value. */
export const escapeText = (s: string): string => s.replace(/[&<>"'`]/g, (c) => ENTITIES[c]!);

class HtmlText {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const isHtml = (value: unknown): value is Html => value instanceof HtmlText;

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (typeof part === 'string') return escapeText(part);
  if (typeof part === 'number' || typeof part === 'boolean') return String(part);
  if (isHtml(part)) return part.text;
  return part.map(render).join('');
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new HtmlText(out) as unknown as Html;
}

/**
 * Markup that is already safe because our own code wrote it (the style sheet, a document
 * made by a library that escapes). Never pass anything a person typed.
 */
export const trusted = (text: string): Html => new HtmlText(text) as unknown as Html;

/** The text of a finished document, for sending. */
export const htmlText = (h: Html): string => h.text;

/**
 * An address for an href or action: only http(s), mailto:, tel:, or a path on this site.
 * Anything else (javascript:, data:) becomes "#", so a stored value can never run.
 */
export function safeUrl(url: string): string {
  const trimmed = url.trim();
  if (/^(https?:|mailto:|tel:)/i.test(trimmed) || (trimmed.startsWith('/') && !trimmed.startsWith('//'))) return trimmed;
  return '#';
}
