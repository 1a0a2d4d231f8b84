import { Type, type TString } from '@sinclair/typebox';

/**
 * What characters people's text may hold, decided once for every place text comes in (an
 * operation's field on REST, MCP or a page's form; a header that carries a name) and every
 * place it goes out (a mail header, a calendar file).
 *
 * A one-line field (a name, an address, an id, a URL) holds no control character at all: no
 * C0 (tab and line breaks included), no DEL, no C1 (NEL, U+0085, included), no line or
 * paragraph separator (U+2028, U+2029), and no bidirectional override or isolate
 * (U+202A–U+202E, U+2066–U+2069). A line break in a name ends up in a mail's subject or a
 * calendar line, where it starts a header or a property of its own; an override turns
 * "Maids \u202Egnp.exe" into what it is not wherever the name is shown.
 *
 * A multi-line field (a booking's notes, access details, a lead's notes, evidence) keeps its
 * line breaks (CR, LF, NEL, U+2028, U+2029) and tabs, which people type and paste, and
 * refuses every other control character and the overrides: no keyboard types them, and an
 * override in a note reorders the text after it in a plain-text mail or a calendar, which
 * isolate nothing. (NUL is refused everywhere before any schema: PostgreSQL cannot store it.)
 *
 * Both rules are JSON Schema `pattern`s (ECMA-262, read with Ajv's unicode flag by both
 * judges), so REST, MCP and the pages refuse the same text with the same sentence, and
 * /openapi.json states the rule to any client.
 */

const OVERRIDES = '\\u202a-\\u202e\\u2066-\\u2069';
/** Every control character, the line and paragraph separators, and the overrides. */
const NOT_IN_ONE_LINE = `\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029${OVERRIDES}`;
/** The same but tab, LF, CR and NEL (the separators are outside the control ranges). */
const NOT_IN_TEXT = `\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x84\\x86-\\x9f${OVERRIDES}`;

export const SINGLE_LINE_PATTERN = `^[^${NOT_IN_ONE_LINE}]*$`;
export const MULTI_LINE_PATTERN = `^[^${NOT_IN_TEXT}]*$`;

const ONE_LINE = new RegExp(SINGLE_LINE_PATTERN, 'u');
const BROKEN_LINES = new RegExp(`[${NOT_IN_ONE_LINE}]+`, 'gu');
const LINE_BREAK = /\r\n|[\n\r\u0085\u2028\u2029]/g;
const NOT_TEXT = new RegExp(`[${NOT_IN_TEXT}]`, 'gu');

/** True when `text` may stand in a one-line field. */
export const isSingleLine = (text: string): boolean => ONE_LINE.test(text);

/**
 * Text made safe for one line (a mail's subject or address), whatever was stored: each run
 * of control, separator and override characters becomes one space.
 */
export const asOneLine = (text: string): string => text.replace(BROKEN_LINES, ' ').trim();

/**
 * Text split at its line breaks (CRLF, CR, LF, NEL, U+2028, U+2029), with every other
 * character no text may hold dropped: what a writer of lines (a calendar file) can escape.
 */
export const linesOf = (text: string): string[] => text.replace(NOT_TEXT, '').split(LINE_BREAK);

interface Bounds {
  minLength?: number;
  maxLength: number;
  description?: string;
}

/** The schema of a text field held to a rule (a pattern above), with its bounds. */
const textField =
  (pattern: string) =>
  ({ minLength, maxLength, description }: Bounds): TString =>
    Type.String({
      ...(minLength === undefined ? {} : { minLength }),
      maxLength,
      pattern,
      ...(description === undefined ? {} : { description }),
    });

/** The schema of a one-line text field (a name, an address, an id). */
export const singleLine = /* @__PURE__ */ textField(SINGLE_LINE_PATTERN);

/** The schema of a text field that may run over several lines (notes, access details). */
export const multiLine = /* @__PURE__ */ textField(MULTI_LINE_PATTERN);
