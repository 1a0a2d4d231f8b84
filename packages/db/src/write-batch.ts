import { sql, type RawBuilder } from 'kysely';
import type { Db } from './connect';

/**
 * Writes a transaction never reads back (a notification, a feed event, a queued mail), sent
 * together as one statement before it commits instead of one round trip each. Each round trip
 * costs the database host a few hundred microseconds however small the statement, so a
 * booking's news costs one trip instead of three.
 *
 * Only inside `batchingWrites` are writes held back; anywhere else `writeLater` runs the write
 * at once, as before. Held writes are data-modifying CTEs of one statement: PostgreSQL runs
 * each of them to completion, in the same transaction, so they commit or roll back with it.
 * Two writes to the same row cannot share a statement (the second would be lost), so a write
 * naming a `row` already held flushes what is held first, and so does `flushWrites`, which a
 * write that must come after them in order calls (an event appended at once, for its number).
 */

/** A held write: given its name, one or more `name AS (...)` CTEs joined by commas. */
export type HeldWrite = (name: string) => RawBuilder<unknown>;

interface Held {
  write: HeldWrite;
  /** The row it updates besides its own insert (a pro's event counter), if any. */
  row?: string;
}

const held = new WeakMap<Db, Held[]>();

/** Runs `work` with its writes through `writeLater` held back, and sends them in one statement before it returns (so before the caller commits). */
export async function batchingWrites<T>(trx: Db, work: () => Promise<T>): Promise<T> {
  if (held.has(trx)) return work();
  held.set(trx, []);
  try {
    const result = await work();
    await flushWrites(trx);
    return result;
  } finally {
    held.delete(trx);
  }
}

/** A write whose result nobody reads: held for the batch when one is open on `trx`, else run now. */
export async function writeLater(trx: Db, write: HeldWrite, row?: string): Promise<void> {
  const pending = held.get(trx);
  if (pending && row !== undefined && pending.some((h) => h.row === row)) await flushWrites(trx);
  if (pending) pending.push({ write, row });
  else await sendWrites(trx, [{ write, row }]);
}

/** Sends the writes held on `trx` now (nothing when none are). */
export async function flushWrites(trx: Db): Promise<void> {
  const pending = held.get(trx);
  if (!pending?.length) return;
  await sendWrites(trx, pending.splice(0));
}

function sendWrites(trx: Db, writes: Held[]) {
  const ctes = writes.map((h, i) => h.write(`w${i}`));
  return sql`WITH ${sql.join(ctes)} SELECT 1`.execute(trx);
}

/** A held write of one query (an insert without RETURNING). */
export const cteOf =
  (query: { toOperationNode(): unknown }): HeldWrite =>
  (name) =>
    sql`${sql.ref(name)} AS (${query})`;
