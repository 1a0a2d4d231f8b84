import { OAuthError } from './oauth-error';

/** `unsupported_response_type`: only response_type=code is supported. RFC 6749 §4.1.2.1, https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1 */
export class UnsupportedResponseTypeError extends OAuthError {
  readonly error = 'unsupported_response_type';
}
