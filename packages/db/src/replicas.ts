import type pg from 'pg';
import type { Logger } from 'pino';
import type { ChangeFeed } from './changes';
import { createPool, type DbOptions } from './connect';
import { onPrimary, replicaCalls, type ReadRoute, type ReplicaCall } from './read-route';

/** A replica further behind than this is not read, unless DATABASE_READ_MAX_LAG_MS says otherwise. */
export const DEFAULT_MAX_REPLICA_LAG_MS = 5000;
/** A replica that does not answer a connection in this long is passed over for the primary. */
const REPLICA_CONNECT_TIMEOUT_MS = 1000;

/** `X/Y` (a WAL position as PostgreSQL prints it) as one number. */
export function lsnValue(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/** The primary as the probe saw it: its WAL position at `at`, and the change-feed stamp taken just before. */
interface Sample {
  at: number;
  lsn: bigint;
  seq: number | null;
}

interface Replica {
  index: number;
  pool: pg.Pool;
  /** The probe reached it last time, and it is a standby. */
  reachable: boolean;
  /** The newest primary sample it had replayed: it holds everything the primary held at this time (epoch ms). */
  coveredAt: number;
  /** That sample's change-feed stamp: every change heard by then is in the replica. */
  coveredSeq: number | null;
}

export interface ReplicaStatus {
  index: number;
  reachable: boolean;
  /** How far behind the primary it may be, at most, in ms (Infinity until first measured). */
  lagMs: number;
  /** Read now: reachable and less than the bound behind. */
  fresh: boolean;
}

export interface ReplicaSetOptions {
  /** A replica more than this many ms behind is not read. */
  maxLagMs?: number;
  /** How often the lag is measured; by default a fifth of the bound, at most once a second. */
  probeMs?: number;
  /** The process's change feed: replica reads are stamped with what the replica has replayed of it. */
  changes?: ChangeFeed;
  pool?: DbOptions;
  logger?: Pick<Logger, 'warn' | 'info'>;
}

/**
 * Streaming replicas of the primary and how far behind each is. The lag is measured without
 * writing anything: every probe reads the primary's WAL position (`pg_current_wal_lsn()`),
 * remembers it with the time and the change-feed stamp, and asks each replica how far it has
 * replayed (`pg_last_wal_replay_lsn()`). A replica that has replayed a sample's position holds
 * everything the primary held at that sample's time: its lag is at most the time since the
 * newest sample it covers. An idle primary's position does not move, so its replicas cover
 * every sample and never look behind (`now() - pg_last_xact_replay_timestamp()` would grow
 * without bound there); a paused or slow replica stops covering new samples and its lag grows
 * with the clock, between probes too.
 *
 * The same samples say which change-feed stamp a replica read may be kept under: the stamp of
 * the newest sample it covers, never the feed's current one (see ChangeFeed.stamp).
 */
export class ReplicaSet implements ReadRoute {
  readonly replicas: Replica[];
  readonly maxLagMs: number;
  private readonly probeMs: number;
  private samples: Sample[] = [];
  private timer: NodeJS.Timeout | null = null;
  private probing: Promise<void> | null = null;
  private turn = 0;
  private closed = false;

  constructor(
    private readonly primary: pg.Pool,
    urls: readonly string[],
    private readonly o: ReplicaSetOptions = {},
  ) {
    this.maxLagMs = o.maxLagMs ?? DEFAULT_MAX_REPLICA_LAG_MS;
    this.probeMs = o.probeMs ?? Math.max(50, Math.min(1000, Math.floor(this.maxLagMs / 5)));
    this.replicas = urls.map((url, index) => ({
      index,
      pool: createPool(url, {
        ...o.pool,
        applicationName: `${o.pool?.applicationName ?? 'front-desk'}-read`,
        connectTimeoutMs: Math.min(o.pool?.connectTimeoutMs || REPLICA_CONNECT_TIMEOUT_MS, REPLICA_CONNECT_TIMEOUT_MS),
      }),
      reachable: false,
      coveredAt: Number.NEGATIVE_INFINITY,
      coveredSeq: null,
    }));
  }

  /** Measures once now, then every probe interval; resolves after the first measurement. */
  async start(): Promise<this> {
    await this.probe();
    onPrimary(() => {
      this.timer = setInterval(() => void this.probe(), this.probeMs);
      this.timer.unref();
    });
    return this;
  }

  /** One measurement (a probe already under way is waited for instead). */
  probe(): Promise<void> {
    this.probing ??= onPrimary(() => this.measure()).finally(() => (this.probing = null));
    return this.probing;
  }

  private async measure(): Promise<void> {
    const seq = this.o.changes?.heardSeq() ?? null;
    const at = Date.now();
    try {
      const { rows } = await this.primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      this.samples.push({ at, lsn: lsnValue(rows[0]!.lsn), seq });
    } catch {
      // The primary is away: no new sample, so the replicas' lag grows with the clock and they
      // are not read past the bound (their staleness can no longer be known).
    }
    // Older samples than the bound are never needed: a replica that covers none of the rest is too far behind.
    const keepFrom = at - this.maxLagMs - 2 * this.probeMs;
    while (this.samples.length > 1 && this.samples[0]!.at < keepFrom) this.samples.shift();
    await Promise.all(this.replicas.map((r) => this.measureReplica(r)));
  }

  private async measureReplica(r: Replica): Promise<void> {
    const wasFresh = this.fresh(r);
    try {
      const { rows } = await r.pool.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn');
      const replayed = rows[0]!.lsn;
      // Not (or no longer) a standby: a promoted copy is a primary of its own, never read as ours.
      if (replayed === null) {
        if (r.reachable) this.o.logger?.warn({ replica: r.index }, 'DATABASE_READ_URL names a server that is not a standby; reads go to the primary');
        r.reachable = false;
        return;
      }
      r.reachable = true;
      const position = lsnValue(replayed);
      for (let i = this.samples.length - 1; i >= 0; i--) {
        const s = this.samples[i]!;
        if (s.lsn <= position) {
          // Replay only moves forward: what a replica covered once it still covers.
          if (s.at > r.coveredAt) {
            r.coveredAt = s.at;
            r.coveredSeq = s.seq;
          }
          break;
        }
      }
    } catch {
      r.reachable = false;
    }
    const isFresh = this.fresh(r);
    if (wasFresh !== isFresh)
      this.o.logger?.[isFresh ? 'info' : 'warn'](
        { replica: r.index, lagMs: this.lagMs(r) },
        isFresh ? 'replica within the lag bound: searches read it' : 'replica behind the lag bound or unreachable: its reads go to the primary',
      );
  }

  private lagMs(r: Replica): number {
    return Date.now() - r.coveredAt;
  }

  private fresh(r: Replica): boolean {
    return r.reachable && this.lagMs(r) < this.maxLagMs;
  }

  /** Each replica: reachable, how far behind at most, and whether it is read now. */
  status(): ReplicaStatus[] {
    return this.replicas.map((r) => ({ index: r.index, reachable: r.reachable, lagMs: this.lagMs(r), fresh: this.fresh(r) }));
  }

  /** A replica close enough to read now, taking turns; null when none is. */
  choose(): Replica | null {
    const fresh = this.replicas.filter((r) => this.fresh(r));
    if (fresh.length === 0) return null;
    this.turn = (this.turn + 1) % fresh.length;
    return fresh[this.turn]!;
  }

  pin(call: ReplicaCall): Replica | null {
    if (call.chosen === undefined) {
      const r = this.closed ? null : this.choose();
      call.chosen = r;
      call.coveredSeq = r ? r.coveredSeq : null;
    }
    return call.chosen === null ? null : this.replicas[call.chosen.index]!;
  }

  /** The primary pool's settings (Kysely's driver reads them). */
  get options(): object {
    return (this.primary as unknown as { options: object }).options;
  }

  /** A connection for a query: the call's replica when it reads one and it answers, else the primary. */
  async connect(): Promise<pg.PoolClient> {
    const call = replicaCalls.getStore();
    const replica = call ? this.pin(call) : null;
    if (replica) {
      try {
        return await replica.pool.connect();
      } catch (err) {
        // Unreachable: the rest of this call reads the primary (fresher than its stamp says:
        // nothing kept is claimed newer than it is), and so does every call until a probe reaches it.
        replica.reachable = false;
        call!.chosen = null;
        this.o.logger?.warn({ replica: replica.index, err: { message: (err as Error).message } }, 'replica unreachable; reads go to the primary');
      }
    }
    return this.primary.connect();
  }

  /** Stops probing and closes the replicas' pools and the primary's. */
  async end(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.probing?.catch(() => {});
    await Promise.all([...this.replicas.map((r) => r.pool.end().catch(() => {})), this.primary.end()]);
  }
}
