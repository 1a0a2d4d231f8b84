import { OAuthError } from './oauth-error';

/** `invalid_redirect_uri`: a redirect URI is not acceptable. RFC 7591 §3.2.2, https://www.rfc-editor.org/rfc/rfc7591#section-3.2.2 */
export class InvalidRedirectUriError extends OAuthError {
  readonly error = 'invalid_redirect_uri';
}
