import { readDatabaseUrl, readPort, readUrl } from '@frontdesk/http';

/** Config in steps: env -> typed config; every error names its variable. */
export interface BookingConfig {
  port: number;
  publicUrl: string;
  proDeskUrl: string;
  databaseUrl: string;
}

export function readBookingConfig(env: NodeJS.ProcessEnv = process.env): BookingConfig {
  const port = readPort(env, 'BOOKING_PORT', 8081);
  const proDeskPort = readPort(env, 'PRO_DESK_PORT', 8080);
  return {
    port,
    publicUrl: readUrl(env, 'BOOKING_URL', `http://localhost:${port}`),
    proDeskUrl: readUrl(env, 'PRO_DESK_URL', `http://localhost:${proDeskPort}`),
    databaseUrl: readDatabaseUrl(env),
  };
}
