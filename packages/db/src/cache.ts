/**
 * The one shape of every in-process cache: entries by key, each carrying the stamp it was
 * read under (a version, a change-feed stamp, an expiry), judged by one rule given when the
 * cache is made; at most `max` entries, and when full it starts over (cheaper than tracking
 * use, and the hot set refills in one round). A hit costs one Map lookup and one call of
 * the rule: no allocation, no hashing beyond the caller's key.
 */
export class KeptValues<E, A = void> {
  private readonly entries = new Map<string, E>();

  /**
   * @param max at most this many entries
   * @param holds whether a kept entry still answers for what the caller asks now (its
   *   version, its time, …); by default an entry holds until replaced or cleared
   */
  constructor(
    private readonly max: number,
    private readonly holds: (entry: E, asked: A) => boolean = () => true,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The entry under `key` while it holds for `asked`. */
  get(key: string, asked: A): E | undefined {
    const entry = this.entries.get(key);
    return entry !== undefined && this.holds(entry, asked) ? entry : undefined;
  }

  /** The entry under `key`, held or not (for callers that judge it after waiting on it). */
  peek(key: string): E | undefined {
    return this.entries.get(key);
  }

  /** Keeps one entry, starting over first when the cache is full. */
  keep(key: string, entry: E): void {
    this.makeRoom(1);
    this.entries.set(key, entry);
  }

  /** Before keeping `count` entries that must all stay until read back: starts over if they would not fit. */
  makeRoom(count: number): void {
    if (this.entries.size + count > this.max) this.entries.clear();
  }

  /** Keeps an entry without looking at the cap: only after makeRoom. */
  set(key: string, entry: E): void {
    this.entries.set(key, entry);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * One cache per owner (a database handle, a change feed), made on first use and dropped with
 * the owner: tests and processes that open several never share entries.
 */
export function perOwner<O extends object, C>(make: (owner: O) => C): (owner: O) => C {
  const byOwner = new WeakMap<O, C>();
  return (owner) => {
    let cache = byOwner.get(owner);
    if (cache === undefined) byOwner.set(owner, (cache = make(owner)));
    return cache;
  };
}
