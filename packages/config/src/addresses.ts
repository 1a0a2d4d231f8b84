import type { FlatEnv } from './env';
import { readPort, readUrl } from './values';

/** Each host's port and public URL variables, and the port it takes when none is set. */
const HOSTS = {
  'pro-desk': { port: 'PRO_DESK_PORT', url: 'PRO_DESK_URL', defaultPort: 8080 },
  booking: { port: 'BOOKING_PORT', url: 'BOOKING_URL', defaultPort: 8081 },
} as const;

export type HostName = keyof typeof HOSTS;

/** Where a host listens, and where it and the other host are reached (each links to the other). */
export interface HostAddresses {
  /** PRO_DESK_PORT or BOOKING_PORT. */
  port: number;
  /** PRO_DESK_URL or BOOKING_URL: `http://localhost:<port>` by default. */
  publicUrl: string;
  /** The other host's URL, read as that host reads its own. */
  otherUrl: string;
}

/** A host's public URL, from its URL variable or its port (a page links to the other host with it). */
export function readHostUrl(env: FlatEnv, host: HostName): string {
  const h = HOSTS[host];
  return readUrl(env, h.url, `http://localhost:${readPort(env, h.port, h.defaultPort)}`);
}

/** `host`'s port and public URL, and the other host's URL (ports first, so a bad port is named before a URL). */
export function readHostAddresses(env: FlatEnv, host: HostName): HostAddresses {
  const self = HOSTS[host];
  const other = host === 'booking' ? 'pro-desk' : 'booking';
  const port = readPort(env, self.port, self.defaultPort);
  readPort(env, HOSTS[other].port, HOSTS[other].defaultPort);
  return { port, publicUrl: readUrl(env, self.url, `http://localhost:${port}`), otherUrl: readHostUrl(env, other) };
}
