import { OAuthError } from './oauth-error';

/** `unsupported_grant_type`: the grant type is not supported. RFC 6749 §5.2, https://www.rfc-editor.org/rfc/rfc6749#section-5.2 */
export class UnsupportedGrantTypeError extends OAuthError {
  readonly error = 'unsupported_grant_type';
}
