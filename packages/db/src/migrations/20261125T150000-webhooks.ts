import { sql, type Kysely } from 'kysely';

// Webhooks (issue 28): a business's endpoints, each fed from the business's own event feed.
// The feed is gapless and in commit order per business, and its rows are written in the
// transaction that made the change, so an endpoint needs no row per delivery: it keeps a
// cursor (delivered_seq, the last event it acknowledged or does not take) and is owed every
// event after it. An event that exists is therefore owed to every endpoint whose cursor is
// below it, whatever happened to the process that wrote it.
// - delivered_seq starts at the business's head when the endpoint is added: it is sent what
//   happens from then on.
// - A sender claims an endpoint with a lease (lease_until, lease_holder) taken by UPDATE … FOR
//   UPDATE SKIP LOCKED: one replica sends to an endpoint at a time, in order, and a replica that
//   dies mid-send loses the lease when it runs out, so another resends the same event (same id).
// - attempts counts failed tries of the event after the cursor; next_attempt_at is when the
//   next try may start; failing_since is set once the endpoint is marked failing (it is never
//   switched off by us).
// - The secret is sealed with the key-encryption key, as the signing keys are (the row's id is
//   the associated data); during a rotation the previous one signs too, until previous_until.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE webhooks (
      id text PRIMARY KEY,
      pro_id text NOT NULL REFERENCES pros (id) ON DELETE CASCADE,
      url text NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
      kinds text[],
      paused boolean NOT NULL DEFAULT false,
      secret_sealed bytea NOT NULL,
      previous_secret_sealed bytea,
      previous_until timestamptz,
      secret_hint text NOT NULL,
      delivered_seq integer NOT NULL CHECK (delivered_seq >= 0),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      failing_since timestamptz,
      last_success_at timestamptz,
      last_failure_at timestamptz,
      last_failure text,
      lease_until timestamptz,
      lease_holder text,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (pro_id, url)
    )`.execute(db);
  await sql`CREATE INDEX webhooks_pro ON webhooks (pro_id, created_at)`.execute(db);
  await sql`CREATE INDEX webhooks_due ON webhooks (next_attempt_at) WHERE NOT paused`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE webhooks`.execute(db);
}
