import { sql, type Kysely } from 'kysely';

/** What a backup or a restore says of a database: its server, what it holds, its schema's place. */
export interface DatabaseFacts {
  /** The server's major version (17 for 17.2): which pg_dump and pg_restore fit it. */
  serverMajor: number;
  database: string;
  /** Tables, views and sequences outside PostgreSQL's own schemas: none in an empty database. */
  relations: string[];
  /** The newest migration applied, or null where none was. */
  migration: string | null;
  /** Businesses and bookings, or null where the tables are not there. */
  businesses: number | null;
  bookings: number | null;
  /**
   * Mail waiting to be sent whose body is a credential (a manage link, a sign-in code): it is
   * kept as written until the outbox delivers it, and blanked then.
   */
  secretMailWaiting: number | null;
}

const countOf = async <DB>(db: Kysely<DB>, table: string, present: boolean) =>
  present ? (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(db)).rows[0]!.n : null;

/** The facts of the database `db` is connected to. */
export async function databaseFacts<DB>(db: Kysely<DB>): Promise<DatabaseFacts> {
  const server = await sql<{ major: number; database: string }>`
    SELECT current_setting('server_version_num')::int / 10000 AS major, current_database() AS database`.execute(db);
  const relations = await sql<{ name: string }>`
    SELECT n.nspname || '.' || c.relname AS name
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
       AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_%'
     ORDER BY 1`.execute(db);
  const names = new Set(relations.rows.map((r) => r.name));
  const migration = names.has('public.kysely_migration')
    ? ((await sql<{ name: string }>`SELECT max(name) AS name FROM kysely_migration`.execute(db)).rows[0]?.name ?? null)
    : null;
  return {
    serverMajor: server.rows[0]!.major,
    database: server.rows[0]!.database,
    relations: [...names],
    migration,
    businesses: await countOf(db, 'pros', names.has('public.pros')),
    bookings: await countOf(db, 'bookings', names.has('public.bookings')),
    secretMailWaiting: names.has('public.outbox')
      ? (await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox WHERE secret AND sent_at IS NULL`.execute(db)).rows[0]!.n
      : null,
  };
}

/** The planner's statistics gathered for every table (a restore leaves them empty). */
export async function analyzeDatabase<DB>(db: Kysely<DB>): Promise<void> {
  await sql`ANALYZE`.execute(db);
}
