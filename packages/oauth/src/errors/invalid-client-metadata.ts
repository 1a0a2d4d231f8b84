import { OAuthError } from './oauth-error';

/** `invalid_client_metadata`: client metadata is invalid. RFC 7591 §3.2.2, https://www.rfc-editor.org/rfc/rfc7591#section-3.2.2 */
export class InvalidClientMetadataError extends OAuthError {
  readonly error = 'invalid_client_metadata';
}
