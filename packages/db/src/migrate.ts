import { sql, type Kysely } from 'kysely';
import { Migrator, type MigrationResultSet } from 'kysely/migration';
import { migrations } from './migrations';

/** The names of every migration this package ships, in the order they apply. */
export const migrationNames = (): string[] => Object.keys(migrations);

const provider = { getMigrations: () => Promise.resolve(migrations) };

function check(result: MigrationResultSet, what: string): string[] {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const cause = result.error instanceof Error ? result.error.message : JSON.stringify(result.error);
    throw new Error(`${what} failed${failed ? ` at ${failed.migrationName}` : ''}: ${cause}`);
  }
  return (result.results ?? []).map((r) => r.migrationName);
}

/**
 * Brings the schema to the latest migration. Kysely's Migrator holds a Postgres advisory
 * lock while it runs, so replicas starting together migrate once.
 */
export async function migrateToLatest<DB>(db: Kysely<DB>): Promise<string[]> {
  return check(await new Migrator({ db, provider }).migrateToLatest(), 'Migration');
}

/** Reverts the newest migration (used by the up-down-up test and by ops). */
export async function migrateDown<DB>(db: Kysely<DB>): Promise<string[]> {
  return check(await new Migrator({ db, provider }).migrateDown(), 'Migrating down');
}

/**
 * A reason a host may not take traffic although its database answers, said on /readyz:
 * `readiness` is the sentence, written for whoever runs the host.
 */
export class NotReadyError extends Error {
  readonly readiness: string;
  constructor(readiness: string) {
    super(readiness);
    this.readiness = readiness;
  }
}

/**
 * Resolves when every migration this code ships has been applied; a schema ahead of the code
 * (a newer release migrated during a rolling deploy) is fine, one behind it is not.
 */
export async function schemaCurrent<DB>(db: Kysely<DB>): Promise<void> {
  const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db).catch((err: unknown) => {
    // No migration table at all: nothing was ever migrated here.
    if ((err as { code?: string }).code === '42P01') return { rows: [] };
    throw err;
  });
  const have = new Set(applied.rows.map((r) => r.name));
  const missing = migrationNames().filter((n) => !have.has(n));
  if (missing.length > 0) {
    throw new NotReadyError(
      `The database schema is behind this version (${missing.length} migration${missing.length === 1 ? '' : 's'} to apply): run the migrations.`,
    );
  }
}
