/**
 * What the HTTP kit's safe retries ask of their store, and what the database's store answers:
 * one contract, so the kit (which knows no tables) and the repo (which knows no requests)
 * cannot drift apart.
 */

/** Where a retried write stands: first seen, answered before, still running, or a different request. */
export type IdempotencyClaim =
  { state: 'new' } | { state: 'done'; response: object } | { state: 'running'; holder: string } | { state: 'mismatch'; operation: string };

export interface IdempotencyRequest {
  credential: string;
  key: string;
  operation: string;
  requestHash: Buffer;
  now: Date;
  /** How long the first request holds the key before a retry may take it over. */
  leaseMs: number;
  /** How long the answer is kept. */
  keepMs: number;
  /** This request's claim: a random id it releases or keeps the key by. */
  holder: string;
  /** A holder this process knows has died (its request ended, its release not yet landed): the key may be taken from it. */
  replacing?: string;
}

/** One claim of one key: whose key, which key, and the request holding it (a random id per claim). */
export interface IdempotencyHold {
  credential: string;
  key: string;
  holder: string;
}

export interface IdempotencyStore {
  /** Takes the key for this request, or tells what holds it. */
  claim(r: IdempotencyRequest): Promise<IdempotencyClaim>;
  /** Keeps the answer, while this claim still holds the key. */
  keep(hold: IdempotencyHold, response: object): Promise<void>;
  /** Frees keys, each while its claim still holds it. */
  release(holds: IdempotencyHold[]): Promise<void>;
}
