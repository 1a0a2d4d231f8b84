import { sql, type Kysely } from 'kysely';

// The book host's OAuth 2.0 authorization server: public clients, pending authorizations
// (the sign-in and consent pages), single-use codes, refresh-token families (rotated on
// every use; a reused one revokes its family) and the keys access tokens are signed with.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE oauth_clients (
      id text PRIMARY KEY,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      redirect_uris text[] NOT NULL CHECK (cardinality(redirect_uris) BETWEEN 1 AND 10),
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE oauth_requests (
      id text PRIMARY KEY,
      client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
      redirect_uri text NOT NULL,
      state text,
      code_challenge text NOT NULL,
      scope text NOT NULL,
      resource text NOT NULL,
      email text,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE oauth_codes (
      code_hash bytea PRIMARY KEY,
      client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
      redirect_uri text NOT NULL,
      code_challenge text NOT NULL,
      email text NOT NULL,
      scope text NOT NULL,
      resource text NOT NULL,
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE oauth_refresh_tokens (
      token_hash bytea PRIMARY KEY,
      family_id text NOT NULL,
      client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
      email text NOT NULL,
      scope text NOT NULL,
      resource text NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX oauth_refresh_family ON oauth_refresh_tokens (family_id)`.execute(db);
  await sql`
    CREATE TABLE oauth_signing_keys (
      kid text PRIMARY KEY,
      private_jwk jsonb NOT NULL,
      public_jwk jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      retired_at timestamptz
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['oauth_signing_keys', 'oauth_refresh_tokens', 'oauth_codes', 'oauth_requests', 'oauth_clients']) {
    await db.schema.dropTable(t).execute();
  }
}
