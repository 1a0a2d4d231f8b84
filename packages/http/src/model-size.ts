/**
 * What of a tool list a client hands the model on every turn: each tool's name, title,
 * description and input schema (annotations and the output schema stay with the client).
 * Serialized as compact JSON, the way clients send it; its UTF-8 bytes are what the budgets
 * below bound (test-e2e/model-sizes.test.ts; `pnpm bench` prints them with token counts).
 */
export function modelFacingTools(tools: readonly { name: string; title?: string; description?: string; inputSchema: unknown }[]): string {
  return JSON.stringify(tools.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema })));
}

export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * The sizes the model-facing parts may take, in bytes (1 KB = 1,024 bytes): the house's
 * standard for tools/list (24 KB on the pro host, 10 KB on the book host, room for the
 * operations still to come), and issue 27's for an open-times week.
 */
export const MODEL_BUDGETS = {
  /** The pro host's tools/list, model-facing part (names, titles, descriptions, input schemas). */
  proTools: 24 * 1024,
  /** The book host's. */
  bookTools: 10 * 1024,
  /** A 7-day open_times answer for a business open 9 hours a day on a 30-minute step. */
  openTimesWeek: 3 * 1024,
} as const;
