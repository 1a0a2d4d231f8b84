import { OAuthError } from './oauth-error';

/** `invalid_request`: the request is missing a parameter or is malformed. RFC 6749 §5.2, https://www.rfc-editor.org/rfc/rfc6749#section-5.2 */
export class InvalidRequestError extends OAuthError {
  readonly error = 'invalid_request';
}
