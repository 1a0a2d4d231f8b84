import { OAuthError } from './oauth-error';

/** `invalid_client`: unknown client or failed client authentication. RFC 6749 §5.2, https://www.rfc-editor.org/rfc/rfc6749#section-5.2 */
export class InvalidClientError extends OAuthError {
  readonly error = 'invalid_client';
  override readonly status = 401;
}
