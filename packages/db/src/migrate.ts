import type { Kysely } from 'kysely';
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
