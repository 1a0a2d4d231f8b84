import { readKeySealer, readPublicClient, type KeySealer } from '@frontdesk/oauth';
import { readDatabaseUrl, readOrigins, readPort, readRateLimits, readTrustProxy, readUrl, type RateLimits } from '@frontdesk/http';

/** Config in steps: env -> flat values -> typed config; every error names its variable. */
export interface ProDeskConfig {
  port: number;
  publicUrl: string;
  bookingUrl: string;
  databaseUrl: string;
  /** Browser origins allowed to call /mcp (MCP_ALLOWED_ORIGINS). */
  mcpAllowedOrigins: string[];
  /** Every rate limit (RATE_LIMIT_*), shared by all replicas through PostgreSQL. */
  rateLimits: RateLimits;
  /** Whose X-Forwarded-For to believe for the client IP (TRUST_PROXY). */
  trustProxy: boolean | number | string;
  /** Seals the OAuth signing keys at rest (KEY_ENCRYPTION_KEY, KEY_ENCRYPTION_KEY_PREVIOUS). */
  keySealer: KeySealer;
  /** The pre-registered public OAuth client (PUBLIC_CLIENT_ID, PUBLIC_CLIENT_REDIRECT_URIS), as on the book host. */
  publicClientId: string;
  publicClientRedirectUris: string[];
}

export function readProDeskConfig(env: NodeJS.ProcessEnv = process.env): ProDeskConfig {
  const port = readPort(env, 'PRO_DESK_PORT', 8080);
  const bookingPort = readPort(env, 'BOOKING_PORT', 8081);
  return {
    port,
    publicUrl: readUrl(env, 'PRO_DESK_URL', `http://localhost:${port}`),
    bookingUrl: readUrl(env, 'BOOKING_URL', `http://localhost:${bookingPort}`),
    databaseUrl: readDatabaseUrl(env),
    mcpAllowedOrigins: readOrigins(env),
    rateLimits: readRateLimits(env),
    trustProxy: readTrustProxy(env),
    keySealer: readKeySealer(env),
    ...readPublicClient(env),
  };
}
