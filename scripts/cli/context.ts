import { NotFoundError } from '@frontdesk/domain';
import { flatten, readDevDatabase } from '@frontdesk/config';
import { createDb, getPro, migrateToLatest, resolveDatabase, type Db } from '@frontdesk/db';
import { projectRoot } from '../project-root';

/** Wrong usage (a flag missing or malformed): exit 2, with a pointer to --help. */
export class UsageError extends Error {}

/** A command that will not do what it was asked, and says why (exit 1, no "Failed:" before it). */
export class RefusedError extends Error {}

/** The flags as parseArgs read them. */
export type Flags = Record<string, string | boolean | string[] | undefined>;

/** What a command is run with: its flags, and whether to print one JSON object. */
export interface Command<F = Flags> {
  values: F;
  json: boolean;
  /** The words after the command's own (`backup <file>`): only commands that take operands get any. */
  positionals: string[];
}

export async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  // DATABASE_URL (or its file, with DATABASE_PASSWORD) as the services read it, else the embedded server.
  const settings = readDevDatabase(flatten(process.env), projectRoot());
  const database = await resolveDatabase(settings);
  // An ops tool answers no request: no statement timeout, so a long migration runs to its end.
  const db = createDb(database.url, { maxConnections: 2, applicationName: 'front-desk-cli', statementTimeoutMs: 0 });
  try {
    // The project's own embedded database is brought up to date as `pnpm start` would;
    // a DATABASE_URL database is migrated only by `pnpm cli migrate`, when ops say so.
    if (!settings.url) await migrateToLatest(db);
    return await fn(db);
  } finally {
    await db.destroy();
    await database.stop();
  }
}

export async function mustExist(db: Db, proId: string) {
  const pro = await getPro(db, proId);
  if (!pro) throw new NotFoundError(`No business with id ${proId}.`);
  return pro;
}

export function print(json: boolean, object: Record<string, unknown>, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(object)}\n` : `${text}\n`);
}
