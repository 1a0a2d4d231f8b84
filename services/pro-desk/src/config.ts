/** Config in steps: env -> flat values -> typed config; every error names its variable. */
export interface ProDeskConfig {
  port: number;
  publicUrl: string;
  bookingUrl: string;
  databaseUrl: string;
}

export function readPort(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${name} must be a port number from 0 to 65535; got "${raw}".`);
  }
  return port;
}

export function readUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return raw.replace(/\/+$/, '');
  } catch {
    throw new Error(`${name} must be an http(s) URL such as https://desk.example.com; got "${raw}".`);
  }
}

export function readProDeskConfig(env: NodeJS.ProcessEnv = process.env): ProDeskConfig {
  const port = readPort(env, 'PRO_DESK_PORT', 8080);
  const bookingPort = readPort(env, 'BOOKING_PORT', 8081);
  const databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL must be set to a PostgreSQL URL, e.g. postgres://user:pass@host:5432/frontdesk.');
  return {
    port,
    publicUrl: readUrl(env, 'PRO_DESK_URL', `http://localhost:${port}`),
    bookingUrl: readUrl(env, 'BOOKING_URL', `http://localhost:${bookingPort}`),
    databaseUrl,
  };
}
