import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createDb, type Db } from './connect';
import { migrateDatabase } from './service-db';
import { createDatabase, dropDatabase, freePort, startEmbeddedPostgres } from './provision';

/**
 * Where tests get a real PostgreSQL (DESIGN.md): TEST_DATABASE_URL if set, else
 * testcontainers when a Docker engine answers, else the embedded server.
 */
export interface TestServer {
  adminUrl: string;
  source: string;
  stop(): Promise<void>;
}

async function dockerAnswers(): Promise<boolean> {
  if (!process.env.DOCKER_HOST && !existsSync('/var/run/docker.sock')) return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await Promise.race([getContainerRuntimeClient(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 5000))]);
    return true;
  } catch {
    return false;
  }
}

export async function startTestServer(): Promise<TestServer> {
  if (process.env.TEST_DATABASE_URL) {
    const url = new URL(process.env.TEST_DATABASE_URL);
    return { adminUrl: url.toString(), source: `TEST_DATABASE_URL (${url.host})`, stop: async () => {} };
  }
  if (await dockerAnswers()) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:17-alpine').start();
    return {
      adminUrl: container.getConnectionUri().replace(/\/[^/]*$/, '/postgres'),
      source: 'testcontainers (postgres:17-alpine)',
      stop: async () => {
        await container.stop();
      },
    };
  }
  const dataDir = join(tmpdir(), `front-desk-test-pg-${process.pid}-${randomBytes(3).toString('hex')}`);
  const port = await freePort();
  const server = await startEmbeddedPostgres({ dataDir, port, password: 'test', persistent: false });
  return {
    adminUrl: server.adminUrl,
    source: `embedded PostgreSQL on port ${port}`,
    stop: async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates and migrates the template every test file's database is cloned from. */
export async function createTemplate(adminUrl: string, name: string): Promise<void> {
  await migrateDatabase(await createDatabase(adminUrl, name));
}

export interface TestDatabase {
  name: string;
  url: string;
  db: Db;
  drop(): Promise<void>;
}

/** A fresh database for one test file, cloned from the migrated template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.FD_TEST_ADMIN_URL;
  const template = process.env.FD_TEST_TEMPLATE;
  if (!adminUrl || !template)
    throw new Error(
      'No test database here: a test that needs one runs in the integration or e2e jest project, whose global setup provides it (jest.config.js).',
    );
  const name = `fd_test_${randomBytes(6).toString('hex')}`;
  const url = await createDatabase(adminUrl, name, template);
  const db = createDb(url, { maxConnections: 20 });
  return {
    name,
    url,
    db,
    drop: async () => {
      await db.destroy();
      await dropDatabase(adminUrl, name);
    },
  };
}

/**
 * The newest sign-in code mailed to an address, read where a mail server would get it: the
 * outbox (other mail to the same address passed over). Waits briefly, since a browser test may ask before its form post has finished.
 */
export async function signInCodeSentTo(db: Db, email: string): Promise<string> {
  for (let tries = 0; tries < 50; tries += 1) {
    // The newest mail carrying a code: the owner may have been mailed other news since (a failing calendar).
    const mails = await db
      .selectFrom('outbox')
      .select('subject')
      .where('to_address', '=', email.toLowerCase())
      .orderBy('created_at', 'desc')
      .limit(20)
      .execute();
    const code = mails.map((m) => /\b(\d{6})\b/.exec(m.subject)?.[1]).find(Boolean);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No sign-in code was mailed to ${email}.`);
}

/** Every string in a stored value: itself, or those inside a list or a JSON value (object keys too). */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value))
    return Object.entries(value).flatMap(([k, v]) => [k, ...stringsIn(v)]);
  return [];
}

/**
 * Every string the database holds in a text, text list or JSON column, named `table.column`:
 * what a test scans for characters no column may hold, whichever path stored them.
 */
export async function storedStrings(db: Db): Promise<{ column: string; text: string }[]> {
  const columns = await sql<{ table_name: string; column_name: string }>`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely%' AND data_type IN ('text', 'character varying', 'ARRAY', 'jsonb')
    ORDER BY table_name, column_name`.execute(db);
  const found: { column: string; text: string }[] = [];
  for (const { table_name: table, column_name: column } of columns.rows) {
    const rows = await sql<{ v: unknown }>`SELECT ${sql.ref(column)} AS v FROM ${sql.table(table)} WHERE ${sql.ref(column)} IS NOT NULL`.execute(db);
    for (const { v } of rows.rows) for (const text of stringsIn(v)) found.push({ column: `${table}.${column}`, text });
  }
  return found;
}

export { hashSecret } from './secrets';
