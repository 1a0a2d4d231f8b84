import { KeptValues, perOwner } from '../src';

// The one cache helper behind every in-process cache: a key, the stamp each entry was read
// under (judged by the cache's one rule), and a cap past which it starts over.
describe('kept values', () => {
  it('answer while the stamp they were read under still holds, and only then', () => {
    const byVersion = new KeptValues<{ version: number; value: string }, number>(10, (kept, version) => kept.version === version);
    byVersion.keep('pro_1', { version: 3, value: 'three' });
    expect(byVersion.get('pro_1', 3)?.value).toBe('three');
    expect(byVersion.get('pro_1', 4)).toBeUndefined();
    expect(byVersion.peek('pro_1')?.value).toBe('three'); // still there, for a caller that judges it itself
    expect(byVersion.get('pro_2', 3)).toBeUndefined();
  });

  it('serve an expiry as the stamp: good until then', () => {
    const ttl = new KeptValues<{ until: number }, number>(10, (kept, now) => kept.until > now);
    ttl.keep('doc', { until: 1000 });
    expect(ttl.get('doc', 999)).toBeDefined();
    expect(ttl.get('doc', 1000)).toBeUndefined();
  });

  it('hold until replaced or cleared when the key carries the version itself', () => {
    const plain = new KeptValues<string>(10);
    plain.keep('pro_1|7|job', 'quote');
    expect(plain.get('pro_1|7|job')).toBe('quote');
    plain.delete('pro_1|7|job');
    expect(plain.get('pro_1|7|job')).toBeUndefined();
  });

  it('start over when full, one entry at a time', () => {
    const capped = new KeptValues<number>(3);
    for (const k of ['a', 'b', 'c']) capped.keep(k, 1);
    expect(capped.size).toBe(3);
    capped.keep('d', 1);
    expect([capped.size, capped.get('a'), capped.get('d')]).toEqual([1, undefined, 1]);
  });

  it('keep a whole batch that must be read back: room is made once, before it', () => {
    const capped = new KeptValues<number>(4);
    for (const k of ['a', 'b', 'c']) capped.keep(k, 1);
    capped.makeRoom(2); // 3 + 2 > 4: starts over
    capped.set('x', 1);
    capped.set('y', 2);
    expect([capped.size, capped.get('a'), capped.get('x'), capped.get('y')]).toEqual([2, undefined, 1, 2]);
    capped.makeRoom(2); // 2 + 2 fits
    expect(capped.size).toBe(2);
    capped.clear();
    expect(capped.size).toBe(0);
  });

  it('are kept per owner: each database or change feed has its own', () => {
    const made: object[] = [];
    const cacheOf = perOwner((owner: object) => {
      made.push(owner);
      return new KeptValues<number>(10);
    });
    const [one, two] = [{}, {}];
    cacheOf(one).keep('k', 1);
    expect(cacheOf(one).get('k')).toBe(1);
    expect(cacheOf(two).get('k')).toBeUndefined();
    expect(made).toEqual([one, two]);
  });
});
