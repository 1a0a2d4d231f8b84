import { sql, type Kysely } from 'kysely';

// The business's own pages and calendar (issue 14):
// - pro_sessions: a browser signed in to a business's dashboard by an emailed code. A
//   session belongs to one business, never to a customer (customers' /key sessions are
//   key_sessions); only the token's hash is kept.
// - calendar_feeds: the secret URL a business's calendar subscribes to, one per business;
//   only its hash is kept, so a new URL is shown once, and making one ends the old.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE pro_sessions (
      token_hash bytea PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX pro_sessions_pro ON pro_sessions (pro_id)`.execute(db);
  await sql`CREATE INDEX pro_sessions_expires_at ON pro_sessions (expires_at)`.execute(db);
  await sql`
    CREATE TABLE calendar_feeds (
      pro_id text PRIMARY KEY REFERENCES pros (id) ON DELETE CASCADE,
      token_hash bytea NOT NULL UNIQUE,
      token_hint text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE calendar_feeds`.execute(db);
  await sql`DROP TABLE pro_sessions`.execute(db);
}
