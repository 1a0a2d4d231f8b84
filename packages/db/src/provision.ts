import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import pg from 'pg';

export { reachableDataDir, startEmbeddedPostgres, type EmbeddedOptions, type RunningServer as RunningPostgres } from './embedded-postgres';

/**
 * A port nothing listens on, for a test or a local process to bind next. It is picked at
 * random below the kernel's ephemeral range: a port from `listen(0)` comes from that range,
 * and between closing it and binding it again an outgoing connection (to PostgreSQL, say)
 * may be given the same number, which is how a test once met "already in use".
 */
export async function freePort(): Promise<number> {
  const [low] = ephemeralRange();
  const below = low - 1;
  for (let tries = 0; below > 20_000 && tries < 50; tries++) {
    const port = 20_000 + Math.floor(Math.random() * (below - 20_000));
    if (await canBind(port)) return port;
  }
  return bindAndRelease(0);
}

function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low!, high!];
  } catch {
    // Not Linux: the IANA range, which macOS and Windows use.
  }
  return [49152, 65535];
}

async function canBind(port: number): Promise<boolean> {
  return bindAndRelease(port).then(
    () => true,
    () => false,
  );
}

function bindAndRelease(port: number): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(port, '127.0.0.1', () => {
      const { port: bound } = srv.address() as { port: number };
      srv.close(() => res(bound));
    });
  });
}

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(adminUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  await withAdmin(adminUrl, async (c) => {
    const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount) return;
    // Two files cloning the template at the same instant can collide on its lock: retry.
    for (let attempt = 0; ; attempt += 1) {
      try {
        await c.query(`CREATE DATABASE ${quoteIdent(name)}${template ? ` TEMPLATE ${quoteIdent(template)}` : ''}`);
        return;
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code !== '55006' || attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
      }
    }
  });
  return databaseUrl(adminUrl, name);
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
}
