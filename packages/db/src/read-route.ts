import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * One call that may read a streaming replica (an operation declared `reads: 'replica'`). The
 * replica is chosen once, when the call first needs the database or a change-feed stamp, and
 * kept for the whole call, with the feed stamp that replica was known to have replayed then.
 */
export interface ReplicaCall {
  /** Unset until chosen; null when the call reads the primary (no replica close enough, or the chosen one failed). */
  chosen?: { index: number } | null;
  /** The change-feed stamp the chosen replica had replayed when chosen (null: none known). */
  coveredSeq?: number | null;
}

/** What chooses a replica for a call: a ReplicaSet. */
export interface ReadRoute {
  /** Chooses (once per call) the replica it reads; null for the primary. */
  pin(call: ReplicaCall): { index: number } | null;
}

export const replicaCalls = new AsyncLocalStorage<ReplicaCall>();

/**
 * Runs `work` as a call whose reads may come from a replica less than the configured lag
 * behind (DATABASE_READ_URL). Only for work that writes nothing and may answer a few seconds
 * stale: the HTTP kit calls it for operations declared `reads: 'replica'`. Without replicas
 * configured it changes nothing.
 */
export function readsFromReplica<T>(work: () => Promise<T>): Promise<T> {
  return replicaCalls.run({}, work);
}

/** Runs `work` on the primary even inside a replica call (timers and the lag probe). */
export function onPrimary<T>(work: () => T): T {
  return replicaCalls.exit(work);
}
