import { isLoopbackHost } from '@frontdesk/http';
import { oauthWords } from '@frontdesk/domain';
import { InvalidRedirectUriError } from './errors';

/** https anywhere, plain http only back to this machine (RFC 8252 loopback redirects). */
export function checkRedirectUri(uri: unknown): string {
  if (typeof uri !== 'string') throw new InvalidRedirectUriError(oauthWords.redirectUriNotString());
  // A URI has no spaces, control or format characters (RFC 3986); URL parsing would quietly drop or encode them.
  if (/[\s\p{Cc}\p{Cf}\p{Cs}]/u.test(uri)) throw new InvalidRedirectUriError(oauthWords.redirectUriHiddenCharacters());
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new InvalidRedirectUriError(oauthWords.redirectUriNotAbsolute(uri));
  }
  const loopback = isLoopbackHost(url.hostname);
  if (url.hash) throw new InvalidRedirectUriError(oauthWords.redirectUriFragment(uri));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) throw new InvalidRedirectUriError(oauthWords.redirectUriNotHttps(uri));
  return uri;
}
