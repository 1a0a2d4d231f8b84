import { readKeySealer, readPublicClient, type KeySealer } from '@frontdesk/oauth';
import { readDatabaseUrl, readOrigins, readPort, readRateLimits, readTrustProxy, readUrl, type RateLimits } from '@frontdesk/http';

/** Config in steps: env -> typed config; every error names its variable. */
export interface BookingConfig {
  port: number;
  publicUrl: string;
  proDeskUrl: string;
  databaseUrl: string;
  /** Browser origins allowed to call /mcp (MCP_ALLOWED_ORIGINS). */
  mcpAllowedOrigins: string[];
  /** The shared public key assistants send when the user has no account of their own. */
  publicSharedKey: string;
  /** The pre-registered public OAuth client (PUBLIC_CLIENT_ID, PUBLIC_CLIENT_REDIRECT_URIS). */
  publicClientId: string;
  publicClientRedirectUris: string[];
  /** Every rate limit (RATE_LIMIT_*), shared by all replicas through PostgreSQL. */
  rateLimits: RateLimits;
  /** Whose X-Forwarded-For to believe for the client IP (TRUST_PROXY). */
  trustProxy: boolean | number | string;
  /** Seals the OAuth signing keys at rest (KEY_ENCRYPTION_KEY, KEY_ENCRYPTION_KEY_PREVIOUS). */
  keySealer: KeySealer;
}

export const DEFAULT_PUBLIC_SHARED_KEY = 'fdpub_local_shared_key';

export function readBookingConfig(env: NodeJS.ProcessEnv = process.env): BookingConfig {
  const port = readPort(env, 'BOOKING_PORT', 8081);
  const proDeskPort = readPort(env, 'PRO_DESK_PORT', 8080);
  return {
    port,
    publicUrl: readUrl(env, 'BOOKING_URL', `http://localhost:${port}`),
    proDeskUrl: readUrl(env, 'PRO_DESK_URL', `http://localhost:${proDeskPort}`),
    databaseUrl: readDatabaseUrl(env),
    mcpAllowedOrigins: readOrigins(env),
    publicSharedKey: readPublicKey(env),
    ...readPublicClient(env),
    rateLimits: readRateLimits(env),
    trustProxy: readTrustProxy(env),
    keySealer: readKeySealer(env),
  };
}

function readPublicKey(env: NodeJS.ProcessEnv): string {
  const key = env.PUBLIC_SHARED_KEY || DEFAULT_PUBLIC_SHARED_KEY;
  if (!/^[A-Za-z0-9_.-]{12,100}$/.test(key)) {
    throw new Error('PUBLIC_SHARED_KEY must be 12 to 100 letters, digits, dots, dashes or underscores.');
  }
  return key;
}
