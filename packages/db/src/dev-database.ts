import { resolve } from 'node:path';
import pg from 'pg';
import { createDatabase, databaseUrl, reachableDataDir, startEmbeddedPostgres } from './provision';

export interface ResolvedDatabase {
  url: string;
  /** Where the database is, in words, for the start-up banner. */
  source: string;
  /** Stops the embedded server if this process started it. */
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Where the database of `pnpm start` and `pnpm cli` is, as their config reads it. */
export interface DevDatabaseOptions {
  /** DATABASE_URL: use this server. */
  url?: string;
  /** Without a URL: the embedded server's port. */
  embeddedPort: number;
  /** Without a URL: the project's data folder; the embedded server's data goes under `postgres/`. */
  dataDir: string;
}

/**
 * The database `pnpm start` and `pnpm cli` use: the given URL when set; otherwise the
 * project's embedded PostgreSQL (data under `postgres/` in the data folder), reusing it when
 * another process (a running `pnpm start`) already has it up. As root, in a folder the
 * postgres user cannot reach, the data moves to /var/tmp (see reachableDataDir); the start
 * banner prints where it is.
 */
export async function resolveDatabase(o: DevDatabaseOptions): Promise<ResolvedDatabase> {
  if (o.url) return { url: o.url, source: `DATABASE_URL (${new URL(o.url).host})`, stop: async () => {} };
  const port = o.embeddedPort;
  const password = 'frontdesk';
  const adminUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const dataDir = reachableDataDir(resolve(o.dataDir, 'postgres'));
  if (await answers(adminUrl)) {
    return { url: await createDatabase(adminUrl, 'frontdesk'), source: `embedded PostgreSQL (already running on port ${port})`, stop: async () => {} };
  }
  const server = await startEmbeddedPostgres({ dataDir, port, password, persistent: true });
  await createDatabase(server.adminUrl, 'frontdesk');
  return {
    url: databaseUrl(server.adminUrl, 'frontdesk'),
    source: `embedded PostgreSQL 18 on port ${port}, data in ${dataDir}`,
    stop: () => server.stop(),
  };
}
