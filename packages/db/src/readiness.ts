import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import { migrationNames } from './migrate';
import { MAX_OUTBOX_ATTEMPTS } from './repos/outbox';

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

/** The pool's connections right now, for /metrics. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export const poolStats = (pool: pg.Pool): PoolStats => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });

/** Work waiting in the database, the same from every replica: mail not yet sent, webhook events not yet delivered. */
export interface Backlog {
  /** Mail waiting to be sent (not yet given up on). */
  outboxPending: number;
  /** Seconds since the oldest of them was written; 0 when none waits. */
  outboxOldestSeconds: number;
  /** Mail given up on after every attempt failed (kept until purged). */
  outboxAbandoned: number;
  /** Webhook endpoints (not paused) owed at least one event. */
  webhooksBehind: number;
  /** Seconds since the oldest event still owed to an endpoint happened; 0 when none is owed. */
  webhookLagSeconds: number;
}

/** Two index-backed reads: the outbox's pending rows, and each endpoint's first event after its cursor. */
export async function readBacklog<DB>(db: Kysely<DB>): Promise<Backlog> {
  const [outbox, hooks] = await Promise.all([
    sql<{ pending: number; oldest: number; abandoned: number }>`
      SELECT count(*) FILTER (WHERE attempts < ${MAX_OUTBOX_ATTEMPTS})::int AS pending,
             coalesce(extract(epoch FROM now() - min(created_at) FILTER (WHERE attempts < ${MAX_OUTBOX_ATTEMPTS})), 0)::float8 AS oldest,
             count(*) FILTER (WHERE attempts >= ${MAX_OUTBOX_ATTEMPTS})::int AS abandoned
        FROM outbox WHERE sent_at IS NULL`.execute(db),
    sql<{ behind: number; lag: number }>`
      SELECT count(e.created_at)::int AS behind, coalesce(extract(epoch FROM now() - min(e.created_at)), 0)::float8 AS lag
        FROM webhooks w
        CROSS JOIN LATERAL (SELECT created_at FROM events WHERE pro_id = w.pro_id AND seq > w.delivered_seq ORDER BY seq LIMIT 1) e
       WHERE NOT w.paused`.execute(db),
  ]);
  const o = outbox.rows[0]!;
  const h = hooks.rows[0]!;
  return {
    outboxPending: o.pending,
    outboxOldestSeconds: Math.max(0, o.oldest),
    outboxAbandoned: o.abandoned,
    webhooksBehind: h.behind,
    webhookLagSeconds: Math.max(0, h.lag),
  };
}
