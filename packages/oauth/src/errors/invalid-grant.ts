import { OAuthError } from './oauth-error';

/** `invalid_grant`: the code or refresh token is invalid, expired, used, or issued to another client or redirect URI. RFC 6749 §5.2, https://www.rfc-editor.org/rfc/rfc6749#section-5.2 */
export class InvalidGrantError extends OAuthError {
  readonly error = 'invalid_grant';
}
