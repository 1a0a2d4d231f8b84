import { InvalidInputError } from '../errors';
import { MULTI_LINE_PATTERN, SINGLE_LINE_PATTERN } from '../plain-text';

/**
 * Refusals of a single field that several areas share (a business's settings, a
 * customer's details): written once, named by the field the caller passes.
 */

export const notAPhone = (field: string, value: string) =>
  new InvalidInputError(`${field} "${value}" is not a phone number (digits, spaces, + ( ) - allowed; at least 7 digits).`);

export const notAnEmail = (field: string, value: string) => new InvalidInputError(`${field} "${value}" is not an email address.`);

/** What the one-line text rule asks of a field (plain-text.ts), as "<field> must be …" ends. */
export const ONE_LINE_TEXT = 'one line of plain text, without line breaks, tabs, other control characters or text-direction overrides';
/** A one-line field that holds a control, separator or override character: the sentence its schema's pattern gives. */
export const notOneLine = (field: string) => new InvalidInputError(`${field} must be ${ONE_LINE_TEXT}.`);
/** What the multi-line text rule asks of a field, as "<field> must be …" ends. */
export const MULTI_LINE_TEXT = 'plain text: line breaks and tabs are fine, other control characters and text-direction overrides are not';
/** The two text rules as the API references state a field's bounds, in place of their patterns. */
export const TEXT_RULE_BOUNDS: Readonly<Record<string, string>> = {
  [SINGLE_LINE_PATTERN]: 'one line (no control or direction-override characters)',
  [MULTI_LINE_PATTERN]: 'line breaks and tabs allowed (no other control or direction-override characters)',
};
