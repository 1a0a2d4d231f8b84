import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import { KeptValues } from './cache';
import { replicaCalls, type ReadRoute } from './read-route';

/** The channel the change triggers notify (migration 20261121T180000-change-notifications). */
export const CHANGES_CHANNEL = 'frontdesk_changes';

const RETRY_MS = [100, 500, 1000, 2000, 5000];
const FENCE_TIMEOUT_MS = 2000;

/**
 * What this process has heard about changes to pros, over a connection of its own that
 * LISTENs to the change triggers. Anything read from PostgreSQL about a pro may be kept in
 * memory under a stamp taken before the read, and used while `unchanged` says no change to
 * that pro was announced since. While the connection is down nothing counts as unchanged
 * (every cache reads through), and when it comes back everything kept before is void: a
 * notification may have been missed in between.
 *
 * Notifications arrive in commit order. `fence` sends one through the same queue and waits
 * for it to come back: every change committed before the call has been heard by then. A
 * process calls it after its own writes, so its next read sees them.
 */
export class ChangeFeed {
  private seq = 0;
  /** Stamps below this are void: taken before the last (re)connection, or while not listening. */
  private validFrom = Number.POSITIVE_INFINITY;
  private readonly lastChange = new Map<string, number>();
  /** The last change heard to each pro's keys or to the pro's own row's existence and profile (kinds k and c). */
  private readonly lastKeyChange = new Map<string, number>();
  private lastProfileChange = 0;
  private readonly fences = new Map<string, () => void>();
  /** The fence on its way, and the one that goes once it is back (shared by everyone who came meanwhile). */
  private fenceOut: Promise<void> | null = null;
  private fenceNext: Promise<void> | null = null;
  private client: pg.Client | null = null;
  private closed = false;
  private attempt = 0;
  private retry: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<(proId: string) => void>();
  /** The replicas reads may come from (DATABASE_READ_URL): set by openServiceDb. */
  readRoute: ReadRoute | null = null;

  constructor(
    private readonly url: string,
    private readonly logger?: Pick<Logger, 'warn'>,
  ) {}

  /** Starts listening; resolves once the first connection listens or has failed (it then keeps retrying). */
  async start(): Promise<this> {
    await this.connect();
    return this;
  }

  /** True while notifications are being heard. */
  get live(): boolean {
    return this.validFrom !== Number.POSITIVE_INFINITY;
  }

  /**
   * Take before reading; null when nothing read now may be kept. Inside a call that reads a
   * replica, the stamp is what that replica is known to have replayed (ReplicaSet): a change
   * heard here but not yet replayed there is newer than the stamp, so what the call reads and
   * keeps is void once that change is heard, never kept as if it had seen it.
   */
  stamp(): number | null {
    if (!this.live) return null;
    const call = this.readRoute ? replicaCalls.getStore() : undefined;
    if (call && this.readRoute!.pin(call)) {
      const covered = call.coveredSeq ?? null;
      return covered !== null && covered >= this.validFrom ? Math.min(covered, this.seq) : null;
    }
    return this.seq;
  }

  /** The newest change heard here, whoever asks (the replicas' lag probe); null while not listening. */
  heardSeq(): number | null {
    return this.live ? this.seq : null;
  }

  /** No change to this pro announced since `stamp` (any of its rows, keys included). */
  unchanged(proId: string, stamp: number | null): boolean {
    return stamp !== null && stamp >= this.validFrom && (this.lastChange.get(proId) ?? 0) <= stamp;
  }

  /**
   * No change to this pro's keys, nor to its profile or existence, announced since `stamp`:
   * its bookings, leads, checks and feed may have changed, but a key that opened it then
   * opens it still.
   */
  keysUnchanged(proId: string, stamp: number | null): boolean {
    return stamp !== null && stamp >= this.validFrom && (this.lastKeyChange.get(proId) ?? 0) <= stamp;
  }

  /**
   * No change to any of these pros since `stamp`: `unchanged` of each, but the ids are looked
   * at only when something was heard since the caller last found them all unchanged. `seen`
   * is the caller's note of when that was (start it at -1); kept with what the stamp covers, it
   * turns a check of hundreds of pros into one comparison while the feed stays quiet. A
   * reconnection counts as heard (it moves the sequence), so nothing found before it passes.
   */
  allUnchanged(proIds: readonly string[], stamp: number | null, seen: { seq: number }): boolean {
    if (stamp === null || stamp < this.validFrom) return false;
    if (seen.seq === this.seq) return true;
    for (const id of proIds) if ((this.lastChange.get(id) ?? 0) > stamp) return false;
    seen.seq = this.seq;
    return true;
  }

  /** No pro's profile (prices, hours, ZIPs, time off) changed, and no pro came or went, since `stamp`. */
  profilesUnchanged(stamp: number | null): boolean {
    return stamp !== null && stamp >= this.validFrom && this.lastProfileChange <= stamp;
  }

  /**
   * Resolves once every change committed before the call has been heard here. At most one
   * fence is on its way at a time: a caller arriving while one is out waits for the next one
   * (the one out may have been sent before its commit), and every caller arriving meanwhile
   * shares that next one. So 16 writers finishing together cost two fences, not 16.
   */
  fence(): Promise<void> {
    if (!this.client || !this.live) return Promise.resolve();
    if (!this.fenceOut) {
      this.fenceOut = this.sendFence().finally(() => (this.fenceOut = null));
      return this.fenceOut;
    }
    if (!this.fenceNext) {
      this.fenceNext = this.fenceOut.then(() => {
        this.fenceNext = null;
        // One started since then was sent after everyone waiting here came.
        return this.fenceOut ?? this.fence();
      });
    }
    return this.fenceNext;
  }

  /** Sends one fence through the notification queue and waits for it to come back (or for the feed to go dark). */
  private async sendFence(): Promise<void> {
    const client = this.client;
    if (!client || !this.live) return;
    const token = randomUUID();
    const heard = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.fences.delete(token);
        resolve();
      }, FENCE_TIMEOUT_MS);
      this.fences.set(token, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    try {
      await client.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, `f:${token}`]);
    } catch {
      // The connection is going down: the caches stop being used until it listens again.
      this.fences.get(token)?.();
    }
    await heard;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.goDark();
    await this.client?.end().catch(() => {});
    this.client = null;
  }

  private hear(payload: string): void {
    const kind = payload.slice(0, 1);
    const id = payload.slice(2);
    if (kind === 'f') {
      this.fences.get(id)?.();
      this.fences.delete(id);
      return;
    }
    this.seq += 1;
    this.lastChange.set(id, this.seq);
    if (kind === 'c') this.lastProfileChange = this.seq;
    if (kind === 'c' || kind === 'k') this.lastKeyChange.set(id, this.seq);
    for (const listener of this.listeners) listener(id);
  }

  /** Calls `listener` with the pro's id on each change heard (a new event in its feed is one); returns the way to stop. */
  onChange(listener: (proId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private goDark(): void {
    this.validFrom = Number.POSITIVE_INFINITY;
    for (const release of this.fences.values()) release();
    this.fences.clear();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'front-desk-changes', keepAlive: true });
    client.on('notification', (n) => {
      if (n.channel === CHANGES_CHANNEL && n.payload) this.hear(n.payload);
    });
    const lost = (err?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      this.goDark();
      client.end().catch(() => {});
      if (!this.closed) {
        this.logger?.warn({ err: err ? { message: err.message } : undefined }, 'change feed lost; caches read through until it listens again');
        this.scheduleRetry();
      }
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      // A fence's NOTIFY needs no durability: its commit need not wait for the WAL flush
      // (which it would do holding PostgreSQL's notify lock, stalling every NOTIFYing commit).
      await client.query('SET synchronous_commit = off');
      if (this.closed) {
        await client.end();
        return;
      }
      this.client = client;
      this.attempt = 0;
      // Whatever was kept before this point may have missed a notification.
      this.seq += 1;
      this.validFrom = this.seq;
    } catch (err) {
      client.end().catch(() => {});
      if (!this.closed) {
        this.logger?.warn({ err: { message: (err as Error).message } }, 'change feed cannot listen yet; caches read through meanwhile');
        this.scheduleRetry();
      }
    }
  }

  private scheduleRetry(): void {
    const delay = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)]!;
    this.attempt += 1;
    this.retry = setTimeout(() => void this.connect(), delay);
    this.retry.unref();
  }
}

/**
 * Values read about pros, each kept while the feed has announced no change to its pro. A
 * read that raced a change is kept under the stamp taken before it, so it is void as soon
 * as the change is heard. Without a feed every get reads.
 */
export class ProMemo<T> {
  private readonly entries: KeptValues<{ stamp: number; proId: string; value: T }>;
  /** Reads under way: calls that miss together, with nothing heard in between, share one read. */
  private readonly reading = new Map<string, { stamp: number; value: Promise<T | undefined> }>();

  constructor(
    private readonly feed: ChangeFeed | undefined,
    max = 20_000,
  ) {
    this.entries = new KeptValues(max, (kept) => feed?.unchanged(kept.proId, kept.stamp) ?? false);
  }

  /** The kept value, if it is still current; never reads. */
  peek(key: string): T | undefined {
    return this.entries.get(key)?.value;
  }

  /**
   * True when a value is kept under `key` and, since it was read, no key of its pro nor the
   * pro itself changed (ChangeFeed.keysUnchanged), whatever else of the pro's did.
   */
  keysUnchangedFor(key: string): boolean {
    const kept = this.entries.peek(key);
    return kept !== undefined && (this.feed?.keysUnchanged(kept.proId, kept.stamp) ?? false);
  }

  /** The kept value while current (and, when `usable` is given, while it says so); else reads and keeps. */
  async get(key: string, read: () => Promise<{ proId: string; value: T } | undefined>, usable?: (value: T) => boolean): Promise<T | undefined> {
    const kept = this.peek(key);
    if (kept !== undefined && (!usable || usable(kept))) return kept;
    const stamp = this.feed?.stamp() ?? null;
    // Only while listening, and only a read that began after the last change heard.
    const shared = this.reading.get(key);
    if (shared && stamp !== null && shared.stamp === stamp) return shared.value;
    const reading = (async () => {
      const found = await read();
      if (!found) {
        this.entries.delete(key);
        return undefined;
      }
      if (stamp !== null) this.entries.keep(key, { stamp, ...found });
      return found.value;
    })();
    if (stamp === null) return reading;
    const mine = { stamp, value: reading };
    this.reading.set(key, mine);
    try {
      return await reading;
    } finally {
      if (this.reading.get(key) === mine) this.reading.delete(key);
    }
  }
}
