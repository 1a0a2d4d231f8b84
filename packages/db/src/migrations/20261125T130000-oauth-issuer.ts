import { sql, type Kysely } from 'kysely';

// An OAuth flow stays on the host it started on (issue 26, A1): a pending authorization, a
// code and a refresh token record the issuer (the host's public URL) that made them, and
// each host refuses the others' rows. Rows made before this migration get the issuer their
// resource names: a resource is the issuer's URL, or that URL with /mcp.
//
// The same release stores sign-in codes and pending authorization ids as HMACs under a key
// derived from KEY_ENCRYPTION_KEY (issue 26, S2), so the rows written before cannot be matched
// any more: unused codes (10 minutes of life) and pending authorizations (15 minutes, their
// ids in the clear) are deleted here. Whoever was signing in at that moment asks for a new code
// or starts again from their assistant; "no code was sent" and "this sign-in has expired" say so.
const TABLES = ['oauth_requests', 'oauth_codes', 'oauth_refresh_tokens'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN issuer text`.execute(db);
    await sql`UPDATE ${sql.table(table)} SET issuer = regexp_replace(resource, '/mcp$', '')`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN issuer SET NOT NULL`.execute(db);
  }
  await sql`DELETE FROM sign_in_codes WHERE consumed_at IS NULL`.execute(db);
  await sql`DELETE FROM oauth_requests`.execute(db);
}

// Down drops the columns; the rows deleted on the way up stay gone (they were minutes from expiring).
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN issuer`.execute(db);
}
