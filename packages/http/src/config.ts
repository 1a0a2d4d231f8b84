/** Config readers for the services: each error names the environment variable. */
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

export function readDatabaseUrl(env: NodeJS.ProcessEnv): string {
  const url = env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL must be set to a PostgreSQL URL, e.g. postgres://user:pass@host:5432/frontdesk.');
  return url;
}

/** This machine's names: loopback origins may call /mcp, and native apps' OAuth redirects may use plain http. */
export const isLoopbackHost = (hostname: string) => ['localhost', '127.0.0.1', '[::1]'].includes(hostname);

/** Browser origins allowed to call /mcp besides the host's own and loopback ones. */
export const DEFAULT_MCP_ORIGINS = ['https://claude.ai', 'https://chatgpt.com'];

export function readOrigins(env: NodeJS.ProcessEnv, name = 'MCP_ALLOWED_ORIGINS'): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return DEFAULT_MCP_ORIGINS;
  return raw.split(',').map((o) => {
    const origin = o.trim();
    try {
      const url = new URL(origin);
      if (url.origin !== origin) throw new Error('not an origin');
      return origin;
    } catch {
      throw new Error(`${name} must be comma-separated origins such as https://claude.ai (scheme, host, optional port, no path); got "${origin}".`);
    }
  });
}
