import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from '@frontdesk/domain';

/** A name that resolved to an address we may not reach. */
export class NotPublic extends Error {}

const isLoopbackAddress = (address: string) => address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');

/**
 * The guard of every request made on someone else's word (webhooks, calendar feeds): public
 * addresses only, loopback too when allowed. `lookup` judges every address a name resolves to
 * when the connection is made, so a name cannot be pointed elsewhere between a check and the
 * connection; `refusesHost` judges an address written out, which is never looked up.
 */
export function outboundGuard(o: { allowLoopback: boolean }): { lookup: LookupFunction; refusesHost(host: string): boolean } {
  const allowed = (address: string) => isPublicAddress(address) || (o.allowLoopback && isLoopbackAddress(address));
  const lookup: LookupFunction = (hostname, options, done) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return done(err, '', 0);
      const found = addresses;
      if (found.length === 0 || found.some((a) => !allowed(a.address))) return done(new NotPublic(hostname), '', 0);
      if ((options as { all?: boolean }).all) return (done as unknown as (e: null, a: LookupAddress[]) => void)(null, found);
      done(null, found[0]!.address, found[0]!.family);
    });
  };
  return { lookup, refusesHost: (host) => isIP(host) !== 0 && !allowed(host) };
}
