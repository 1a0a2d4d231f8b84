import { isLoopbackHost } from '@frontdesk/http';
import { InvalidRedirectUriError } from './errors';

/** https anywhere, plain http only back to this machine (RFC 8252 loopback redirects). */
export function checkRedirectUri(uri: unknown): string {
  if (typeof uri !== 'string') throw new InvalidRedirectUriError('Each redirect URI must be a string.');
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new InvalidRedirectUriError(`"${uri}" is not an absolute URI.`);
  }
  const loopback = isLoopbackHost(url.hostname);
  if (url.hash) throw new InvalidRedirectUriError(`"${uri}" must not have a fragment.`);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new InvalidRedirectUriError(`"${uri}" must use https (plain http is allowed only for localhost or 127.0.0.1).`);
  }
  return uri;
}
