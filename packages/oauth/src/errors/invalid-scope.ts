import { OAuthError } from './oauth-error';

/** `invalid_scope`: the scope is unknown or exceeds what was granted. RFC 6749 §5.2, https://www.rfc-editor.org/rfc/rfc6749#section-5.2 */
export class InvalidScopeError extends OAuthError {
  readonly error = 'invalid_scope';
}
