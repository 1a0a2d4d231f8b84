import { html, type Html } from '@frontdesk/http';

/**
 * Text someone else typed (a customer's name, notes, address; a message quoting them), isolated
 * so a direction override in it (U+202E) cannot turn the words around it.
 */
export const typedText = (text: string): Html => html`<bdi>${text}</bdi>`;

/** What was typed into a form, by field, as text (it goes back into the form's inputs after a refusal). */
export type Typed = Record<string, string>;
