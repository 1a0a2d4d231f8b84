import { BlockList, isIP } from 'node:net';

/**
 * Which addresses the service may send a request to on someone's word (a client's metadata
 * document, a business's webhook): public unicast only. Loopback, private, shared,
 * link-local, multicast and reserved ranges are refused, and so are NAT64, Teredo and 6to4,
 * each of which carries an IPv4 address a relay would reach.
 */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  // Documentation and the retired 6to4 relay anycast: never a real receiver.
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  // The unspecified and loopback addresses, and IPv4 written in IPv6 in the forms a
  // translator would reach: IPv4-compatible (::/96) and SIIT's (::ffff:0:0:0/96). IPv4-mapped
  // addresses are judged as the IPv4 address they carry (below).
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  // Discard-only, documentation, and the deprecated site-local range.
  ['100::', 64],
  ['2001:db8::', 32],
  ['fec0::', 10],
  // NAT64 local use, Teredo and 6to4: each carries an IPv4 address a relay would reach.
  ['64:ff9b:1::', 48],
  ['2001::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** An IPv6 address in its one short form; undefined for what a URL cannot carry (a zone id). */
function shortIpv6(address: string): string | undefined {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/** Whether an address is public unicast, one a request on someone's word may go to. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1, or written out in full) is judged as
  // the IPv4 address it is. The URL parser writes any IPv6 spelling in its one short form.
  const short = family === 6 ? shortIpv6(address) : address;
  if (short === undefined) return false;
  const hex = family === 6 ? /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(short) : null;
  if (hex) {
    const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return isPublicAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * This machine's names, the only hosts plain http may go to: loopback origins may call /mcp,
 * native apps' OAuth redirects may use them, and a webhook may while the service itself runs
 * on http (development and tests).
 */
export const isLoopbackHost = (hostname: string) => ['localhost', '127.0.0.1', '[::1]'].includes(hostname);
