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

/** The sizes issue 27 sets, in bytes (1 KB = 1,024 bytes). */
export const MODEL_BUDGETS = {
  /**
   * The pro host's tools/list, model-facing part: issue 27's 16 KB, plus 1 KB for the sentence
   * every write ends with (WRITE_RETRY_TEXT, issue 32): 45 bytes on each of its 20 writes.
   */
  proTools: 17 * 1024,
  /** The book host's. */
  bookTools: 8 * 1024,
  /** A 7-day open_times answer for a business open 9 hours a day on a 30-minute step. */
  openTimesWeek: 3 * 1024,
} as const;
