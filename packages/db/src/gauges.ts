import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import { outboxBacklog } from './repos/outbox';

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
  const [o, hooks] = await Promise.all([
    outboxBacklog(db),
    sql<{ behind: number; lag: number }>`
      SELECT count(e.created_at)::int AS behind, coalesce(extract(epoch FROM now() - min(e.created_at)), 0)::float8 AS lag
        FROM webhooks w
        CROSS JOIN LATERAL (SELECT created_at FROM events WHERE pro_id = w.pro_id AND seq > w.delivered_seq ORDER BY seq LIMIT 1) e
       WHERE NOT w.paused`.execute(db),
  ]);
  const h = hooks.rows[0]!;
  return {
    outboxPending: o.pending,
    outboxOldestSeconds: Math.max(0, o.oldest),
    outboxAbandoned: o.abandoned,
    webhooksBehind: h.behind,
    webhookLagSeconds: Math.max(0, h.lag),
  };
}
