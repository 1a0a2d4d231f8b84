import { OAuthError } from './oauth-error';

/** `invalid_target`: the resource is not one this server issues tokens for. RFC 8707 §2, https://www.rfc-editor.org/rfc/rfc8707#section-2 */
export class InvalidTargetError extends OAuthError {
  readonly error = 'invalid_target';
}
