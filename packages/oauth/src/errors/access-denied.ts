import { OAuthError } from './oauth-error';

/** `access_denied`: the person declined. RFC 6749 §4.1.2.1, https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1 */
export class AccessDeniedError extends OAuthError {
  readonly error = 'access_denied';
}
