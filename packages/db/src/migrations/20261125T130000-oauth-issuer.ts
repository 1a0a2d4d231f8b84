import { sql, type Kysely } from 'kysely';

// An OAuth flow stays on the host it started on (issue 26, A1): a pending authorization, a
// code and a refresh token record the issuer (the host's public URL) that made them, and
// each host refuses the others' rows. Rows made before this migration get the issuer their
// resource names: a resource is the issuer's URL, or that URL with /mcp.
const TABLES = ['oauth_requests', 'oauth_codes', 'oauth_refresh_tokens'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN issuer text`.execute(db);
    await sql`UPDATE ${sql.table(table)} SET issuer = regexp_replace(resource, '/mcp$', '')`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN issuer SET NOT NULL`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN issuer`.execute(db);
}
