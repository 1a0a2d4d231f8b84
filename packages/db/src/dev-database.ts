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

/**
 * The database `pnpm start` and `pnpm cli` use: DATABASE_URL when set; otherwise the
 * project's embedded PostgreSQL (data in FRONT_DESK_DATA_DIR, by default `.data/` in the
 * project, under `postgres/`), reusing it when another process (a running `pnpm start`)
 * already has it up. As root, in a folder the postgres user cannot reach, the data moves
 * to /var/tmp (see reachableDataDir); the start banner prints where it is.
 */
export async function resolveDatabase(env: NodeJS.ProcessEnv, projectRoot: string): Promise<ResolvedDatabase> {
  if (env.DATABASE_URL) {
    const host = (() => {
      try {
        return new URL(env.DATABASE_URL).host;
      } catch {
        throw new Error('DATABASE_URL is not a valid URL; expected postgres://user:pass@host:5432/dbname.');
      }
    })();
    return { url: env.DATABASE_URL, source: `DATABASE_URL (${host})`, stop: async () => {} };
  }
  const port = Number(env.EMBEDDED_PG_PORT || 54329);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new Error(`EMBEDDED_PG_PORT must be a port number; got "${env.EMBEDDED_PG_PORT}".`);
  }
  const password = 'frontdesk';
  const adminUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const dataDir = reachableDataDir(resolve(env.FRONT_DESK_DATA_DIR || resolve(projectRoot, '.data'), 'postgres'));
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
