import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { flatten, readDevDatabase } from '@frontdesk/config';
import { analyzeDatabase, createDb, databaseFacts, migrationNames, resolveDatabase, type DatabaseFacts } from '@frontdesk/db';
import { projectRoot } from '../project-root';
import { RefusedError, UsageError, print } from './context';
import type { Run } from './options';
import { libpqConnection, pgTool, runTool } from './pg-tools';

/** The database the CLI is pointed at (DATABASE_URL, else the embedded one), not migrated: a restore wants it as it is. */
async function withTarget<T>(fn: (url: string, facts: DatabaseFacts) => Promise<T>): Promise<T> {
  const database = await resolveDatabase(readDevDatabase(flatten(process.env), projectRoot()));
  try {
    return await fn(database.url, await factsOf(database.url));
  } finally {
    await database.stop();
  }
}

async function factsOf(url: string): Promise<DatabaseFacts> {
  const db = createDb(url, { maxConnections: 1, applicationName: 'front-desk-cli', statementTimeoutMs: 0 });
  try {
    return await databaseFacts(db);
  } finally {
    await db.destroy();
  }
}

/** The file a command names: its one positional word after the command's. */
function fileArgument(positionals: string[], command: string): string {
  const [file, ...rest] = positionals;
  if (!file || rest.length) throw new UsageError(`${command} needs one file: pnpm cli ${command} <file>.`);
  return resolve(file);
}

/** How many tables' data an archive holds, read by pg_restore --list (which also proves the file is a whole archive). */
const tablesIn = (listing: string) => listing.split('\n').filter((line) => /^\d+;.* TABLE DATA /.test(line)).length;

const count = (n: number | null, noun: string) => `${n ?? 0} ${n === 1 ? noun : `${noun}${noun.endsWith('s') ? 'es' : 's'}`}`;

const schemaWords = (f: DatabaseFacts) => (f.migration ? `schema at ${f.migration}` : 'no Front Desk schema');

/**
 * `backup <file>`: the database in pg_dump's custom format, written to `<file>.partial` and
 * renamed once pg_restore has read it back whole, so a failed backup never leaves a file that
 * looks like one. Secrets are in it as the database keeps them: hashed or sealed.
 */
export const backup: Run = async ({ json, positionals }) => {
  const file = fileArgument(positionals, 'backup');
  if (existsSync(file)) throw new RefusedError(`${file} is already there: name a new file (a backup never replaces another).`);
  const partial = `${file}.partial`;
  const done = await withTarget(async (url, facts) => {
    const dump = pgTool('pg_dump', facts.serverMajor);
    const list = pgTool('pg_restore', facts.serverMajor);
    const { dbname, env } = libpqConnection(url);
    try {
      await runTool(dump, ['--format=custom', '--no-password', `--file=${partial}`, `--dbname=${dbname}`], env);
      const tables = tablesIn(await runTool(list, ['--list', partial]));
      renameSync(partial, file);
      return { facts, dump, tables };
    } finally {
      rmSync(partial, { force: true });
    }
  });
  const { facts, dump, tables } = done;
  const bytes = statSync(file).size;
  const waiting = facts.secretMailWaiting ?? 0;
  const note = waiting
    ? `\n${count(waiting, 'mail')} waiting in the outbox carry links or sign-in codes as written (the outbox blanks them once sent): keep this file as you keep the database.`
    : '';
  print(
    json,
    {
      file,
      bytes,
      tables,
      database: facts.database,
      server_major: facts.serverMajor,
      migration: facts.migration,
      pg_dump: dump.path,
      businesses: facts.businesses,
      bookings: facts.bookings,
      secret_mail_waiting: waiting,
    },
    `Backed up ${facts.database} (PostgreSQL ${facts.serverMajor}, ${schemaWords(facts)}; ${count(facts.businesses, 'business')}, ${count(facts.bookings, 'booking')}) ` +
      `to ${file}: ${tables} tables, ${bytes} bytes, by ${dump.version} (${dump.path}).${note}`,
  );
};

/**
 * `restore <file> [--replace]`: a backup into the database the CLI is pointed at, in one
 * transaction (all of it or nothing). The database must be empty unless --replace, which
 * drops and re-creates what the backup holds. Owners and grants are left out: what is
 * restored belongs to the user restoring it.
 */
export const restore: Run = async ({ values, json, positionals }) => {
  const file = fileArgument(positionals, 'restore');
  if (!existsSync(file)) throw new RefusedError(`There is no backup at ${file}.`);
  const replace = values.replace ?? false;
  const { before, after, tables } = await withTarget(async (url, facts) => {
    if (facts.relations.length > 0 && !replace) {
      const some = facts.relations.slice(0, 3).join(', ');
      throw new RefusedError(
        `The database ${facts.database} is not empty (${facts.relations.length} tables and sequences, ${some}, …): restore into a new, empty database, ` +
          'or add --replace to drop and re-create there everything the backup holds.',
      );
    }
    const tool = pgTool('pg_restore', facts.serverMajor);
    const tables = tablesIn(await runTool(tool, ['--list', file]));
    const { dbname, env } = libpqConnection(url);
    const clean = replace ? ['--clean', '--if-exists'] : [];
    await runTool(tool, ['--no-owner', '--no-acl', '--exit-on-error', '--single-transaction', '--no-password', ...clean, `--dbname=${dbname}`, file], env);
    await analyze(url);
    return { before: facts, after: await factsOf(url), tables };
  });
  const missing = migrationNames().filter((n) => after.migration === null || n > after.migration).length;
  const next = missing
    ? `${missing} migration${missing === 1 ? '' : 's'} to apply: run pnpm cli migrate before starting the services.`
    : 'The schema is up to date.';
  print(
    json,
    {
      file,
      database: after.database,
      tables,
      migration: after.migration,
      migrations_to_apply: missing,
      businesses: after.businesses,
      bookings: after.bookings,
      replaced: before.relations.length > 0,
    },
    `Restored ${file} into ${after.database}: ${tables} tables, ${count(after.businesses, 'business')}, ${count(after.bookings, 'booking')}, ${schemaWords(after)}. ${next}`,
  );
};

/** pg_restore leaves the planner's statistics empty: gathered now, so the first queries are planned well. */
async function analyze(url: string): Promise<void> {
  const db = createDb(url, { maxConnections: 1, applicationName: 'front-desk-cli', statementTimeoutMs: 0 });
  try {
    await analyzeDatabase(db);
  } finally {
    await db.destroy();
  }
}
