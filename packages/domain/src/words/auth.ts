import { InvalidInputError } from '../errors';
import { ONE_LINE_TEXT } from './input';

/**
 * What a caller reads when its credentials or identity headers are refused. The 401 and 403
 * challenges are errors of packages/http, which the domain does not import: those sentences
 * are strings the services pass to them.
 */

export const MISSING_CUSTOMER_CREDENTIALS =
  'Missing credentials: send "Authorization: Bearer <key>" with the shared public key, a personal key or an access token.';
export const MISSING_BUSINESS_CREDENTIALS = 'Missing credentials: send the business key, or an access token, as "Authorization: Bearer <key>".';
export const ACCESS_TOKEN_NOT_VALID = 'The access token is expired, revoked or not valid; refresh it or sign in again.';
export const CUSTOMER_KEY_NOT_VALID = 'That key or token is not valid (wrong, revoked or expired).';
export const BUSINESS_KEY_NOT_VALID = 'That API key is not valid (wrong, or replaced by a newer key). Get the current key from the business owner.';
/** An OAuth sign-in that did not grant the scope `operation` needs (a 403: it did authenticate). */
export const lacksScopeMessage = (scope: string, operation: string) =>
  `This sign-in lacks the "${scope}" scope needed for ${operation}; connect again and allow it.`;

/** The book host's X-User-* headers, checked like the body fields they stand for. */
export const headerBlank = (name: string) => new InvalidInputError(`The ${name} header must not be blank.`);
export const headerNotOneLine = (name: string) => new InvalidInputError(`The ${name} header must be ${ONE_LINE_TEXT}.`);
export const headerTooLong = (name: string, max: number) => new InvalidInputError(`The ${name} header must be at most ${max} characters long.`);
export const headerNotAnEmail = (email: string) => new InvalidInputError(`The X-User-Email header "${email}" is not an email address.`);
export const headerNotAPhone = (phone: string) => new InvalidInputError(`The X-User-Phone header "${phone}" is not a phone number (at least 7 digits).`);

export const noPersonalKeyToRevoke = () => new InvalidInputError('Send the personal key to revoke as Authorization: Bearer <key>.');
