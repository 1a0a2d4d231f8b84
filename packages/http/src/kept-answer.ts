/**
 * An answer an operation keeps and gives again to later calls (a cached search presented
 * once, for as long as its cache says it holds): frozen, so no caller can change what the next
 * one receives, and serialized once, so REST writes the same text again instead of
 * stringifying the same object on every call. The operation decides when a kept answer holds;
 * this only remembers its JSON, by the object itself (a new answer is a new object).
 */
const texts = new WeakMap<object, string | null>();

/** Marks `answer` (and everything in it) as kept: frozen, its JSON made on first use and written again. */
export function keptAnswer<T extends object>(answer: T): T {
  texts.set(deepFreeze(answer), null);
  return answer;
}

/**
 * The body of a JSON answer as res.json would write it: a kept answer's text is made once. It
 * stays text, not a Buffer: Node writes a text body in one piece with the headers, a Buffer
 * after them in a second.
 */
export function jsonBody(answer: unknown): string {
  if (typeof answer !== 'object' || answer === null) return JSON.stringify(answer);
  const kept = texts.get(answer);
  if (kept === undefined) return JSON.stringify(answer);
  if (kept !== null) return kept;
  const text = JSON.stringify(answer);
  texts.set(answer, text);
  return text;
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
  return value;
}
