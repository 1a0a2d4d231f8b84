import { InvalidInputError } from '../errors';
import { IDEMPOTENCY_KEEP_HOURS } from '../policy';

/** What a caller reads about the request itself, whichever transport carried it: its shape, its headers, its idempotency key. */

export const clientNameTooLong = (max: number) => new InvalidInputError(`X-Client-Name must be at most ${max} characters long.`);
export const notAnInputObject = () => new InvalidInputError("The input must be a JSON object of the operation's fields.");
/** The sentence for an input nested deeper than any operation's schema (refused before it is judged). */
export const inputTooDeep = (max: number) => `The input is nested too deeply; no operation takes more than ${max} levels of lists and objects.`;
export const notAParameter = (key: string) => new InvalidInputError(`${key} is not a parameter of this operation.`);
export const parameterRepeated = (key: string) => new InvalidInputError(`${key} is given more than once; give it once (lists are comma-separated).`);
export const SEND_JSON = 'Send the body as JSON with Content-Type: application/json.';

/** What a caller reads when the request itself cannot be read: its body or its address (pages show the same words). */
export const requestWords = {
  bodyNotJson: 'The request body is not valid JSON.',
  bodyTooLarge: (kb: number) => `The request body is too large; the limit here is ${kb} KB.`,
  bodyNotUtf8: 'Send the body as UTF-8 text (JSON with Content-Type: application/json, or a form).',
  encodingUnsupported: (encoding: string) =>
    `The body's Content-Encoding "${encoding}" is not one this service reads; send it uncompressed, or as gzip, deflate or br.`,
  encodingLie: 'The request body could not be decompressed as its Content-Encoding says; send it uncompressed, or compressed as that header names.',
  bodyIncomplete: 'The request body did not arrive whole (its length did not match Content-Length); send it again.',
  tooManyFields: 'The form has too many fields.',
  badPercentEncoding: 'The address is not valid percent-encoding: every % in it must begin an escape of UTF-8, like %20.',
  refused: (status: number) => `The request could not be read (HTTP ${status}); check its headers and body and send it again.`,
  pageTitle: 'This request could not be read',
  pageTitleLate: 'Try again in a moment',
};

export const idempotencyNotKept = () => new InvalidInputError('This service does not keep idempotency keys; send the request without one.');
export const idempotencyKeyMalformed = (name: string) => new InvalidInputError(`${name} must be 1 to 255 printable characters without spaces, such as a UUID.`);
export const idempotencyKeyReused = (operation: string) =>
  new InvalidInputError(
    `This idempotency key was already used in the last ${IDEMPOTENCY_KEEP_HOURS} hours for a different request (${operation} with other input). Use a new key for a new request.`,
  );
/** The answer a request gets when its deadline comes first (503, with Retry-After). */
export const deadlinePassed = (seconds: number) =>
  `The service could not answer within ${seconds} seconds: its database is slow or away just now. Try again in a few seconds; a write sent with an Idempotency-Key is safe to retry.`;
export const STILL_RUNNING = 'A request with this idempotency key is still running; try again in a few seconds to get its answer.';
/** The last sentence of every write operation's description, in these words (defineOperation appends it). */
export const WRITE_RETRY_TEXT = 'Retry-safe with the same idempotency key.';
/** How the MCP server instructions describe the idempotency argument of write tools. */
export const IDEMPOTENCY_ARGUMENT_TEXT = `Every write tool that is not idempotent takes an optional idempotency_key, a UUID for that one action: a retry with the same key and arguments within ${IDEMPOTENCY_KEEP_HOURS} hours gets the same answer and is never done twice.`;
/** The same, for the REST header (published in /openapi.json). */
export const IDEMPOTENCY_HEADER_TEXT = `Optional. A unique value (a UUID) for this one action, 1 to 255 printable characters without spaces: if the answer is lost, send the same request with the same key to get the same answer (with Idempotent-Replayed: true); it is never done twice. Kept for ${IDEMPOTENCY_KEEP_HOURS} hours.`;

/** A failure of ours: nothing of it is told, but the request id support can look up. */
export const somethingWentWrong = (requestId: string) =>
  `Something went wrong on our side and nothing was changed. Try again; if it keeps failing, give support the request id ${requestId}.`;
