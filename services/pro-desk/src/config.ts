import { readDatabaseUrl, readOrigins, readPort, readUrl } from '@frontdesk/http';

/** Config in steps: env -> flat values -> typed config; every error names its variable. */
export interface ProDeskConfig {
  port: number;
  publicUrl: string;
  bookingUrl: string;
  databaseUrl: string;
  /** Browser origins allowed to call /mcp (MCP_ALLOWED_ORIGINS). */
  mcpAllowedOrigins: string[];
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
  };
}
