import { randomUUID } from 'node:crypto';
import { idempotencyStore } from '@frontdesk/db';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { runOnce, StillRunningError, type IdempotencyOptions, type KeptAnswer } from '../src';

// runOnce over the real store: one PostgreSQL table every replica shares.
let t: TestDatabase;
let opts: IdempotencyOptions<{ id: string }>;
beforeAll(async () => {
  t = await createTestDatabase();
  opts = { store: idempotencyStore(t.db), scopeOf: (p) => ({ credential: `caller:${p.id}` }) };
});
afterAll(() => t.drop());

const asIs: KeptAnswer = { keep: (r) => r, replay: (kept) => Promise.resolve(kept) };
const call = (key: string, input: unknown, id = 'a') => ({ principal: { id }, address: '127.0.0.1', key, operation: 'book', input, now: () => new Date() });

/** A piece of work that counts its runs and answers with the run it was. */
function counted() {
  let runs = 0;
  return {
    work: async () => ({ run: (runs += 1) }),
    get runs() {
      return runs;
    },
  };
}

describe('runOnce', () => {
  it('does the work once and gives its answer again to a retry with the same key and input', async () => {
    const key = randomUUID();
    const w = counted();
    expect(await runOnce(opts, call(key, { n: 1 }), asIs, w.work)).toEqual({ result: { run: 1 }, replayed: false });
    expect(await runOnce(opts, call(key, { n: 1 }), asIs, w.work)).toEqual({ result: { run: 1 }, replayed: true });
    expect(w.runs).toBe(1);
  });

  it('hashes the input with its keys sorted, so the same input in another order is the same request', async () => {
    const key = randomUUID();
    const w = counted();
    await runOnce(opts, call(key, { a: 1, b: { c: 2, d: 3 } }), asIs, w.work);
    expect((await runOnce(opts, call(key, { b: { d: 3, c: 2 }, a: 1 }), asIs, w.work)).replayed).toBe(true);
  });

  it('refuses the same key with other input, naming the first request', async () => {
    const key = randomUUID();
    await runOnce(opts, call(key, { n: 1 }), asIs, counted().work);
    await expect(runOnce(opts, call(key, { n: 2 }), asIs, counted().work)).rejects.toThrow(
      'This idempotency key was already used in the last 24 hours for a different request (book with other input). Use a new key for a new request.',
    );
  });

  it('keeps one key space per credential', async () => {
    const key = randomUUID();
    const w = counted();
    await runOnce(opts, call(key, { n: 1 }, 'a'), asIs, w.work);
    expect(await runOnce(opts, call(key, { n: 1 }, 'b'), asIs, w.work)).toEqual({ result: { run: 2 }, replayed: false });
  });

  it('frees the key when the work fails, so a corrected retry runs', async () => {
    const key = randomUUID();
    await expect(
      runOnce(opts, call(key, { n: 1 }), asIs, () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    const w = counted();
    expect(await runOnce(opts, call(key, { n: 1 }), asIs, w.work)).toEqual({ result: { run: 1 }, replayed: false });
  });

  it('has a duplicate that arrives while the first runs wait for its answer', async () => {
    const key = randomUUID();
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    let runs = 0;
    const work = async () => {
      runs += 1;
      await gate;
      return { run: runs };
    };
    const first = runOnce(opts, call(key, { n: 1 }), asIs, work);
    await new Promise((r) => setTimeout(r, 100));
    const duplicate = runOnce(opts, call(key, { n: 1 }), asIs, work);
    await new Promise((r) => setTimeout(r, 150));
    finish();
    expect(await first).toEqual({ result: { run: 1 }, replayed: false });
    expect(await duplicate).toEqual({ result: { run: 1 }, replayed: true });
    expect(runs).toBe(1);
  });

  it('tells a duplicate still waiting after 10 seconds to try again (503)', async () => {
    const key = randomUUID();
    let finish!: () => void;
    const first = runOnce(opts, call(key, { n: 1 }), asIs, () => new Promise<object>((resolve) => (finish = () => resolve({ run: 1 }))));
    await new Promise((r) => setTimeout(r, 100));
    const realNow = Date.now.bind(Date);
    let skipped = 0;
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + skipped);
    try {
      const duplicate = runOnce(opts, call(key, { n: 1 }), asIs, counted().work);
      await new Promise((r) => setTimeout(r, 120));
      skipped = 11_000;
      const err = await duplicate.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StillRunningError);
      expect(err).toMatchObject({ status: 503, message: expect.stringMatching(/still running; try again in a few seconds/) });
    } finally {
      clock.mockRestore();
      finish();
      await first;
    }
  });

  it('stores what the operation keeps and replays it its own way (a secret is minted anew)', async () => {
    const key = randomUUID();
    const withSecret: KeptAnswer = {
      keep: ({ token: _token, ...rest }: { token?: string }) => rest,
      replay: async (kept) => ({ ...kept, token: 'fresh' }),
    };
    await runOnce(opts, call(key, {}), withSecret, async () => ({ id: 'bk_1', token: 'first' }));
    const stored = await t.db.selectFrom('idempotency_keys').select('response').where('key', '=', key).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored.response)).not.toContain('first');
    expect((await runOnce(opts, call(key, {}), withSecret, counted().work)).result).toEqual({ id: 'bk_1', token: 'fresh' });
  });
});

describe('the store: claims hold a key by a holder id', () => {
  const claim = (key: string, holder: string, replacing?: string) =>
    opts.store.claim({
      credential: 'caller:h',
      key,
      operation: 'book',
      requestHash: Buffer.alloc(32, 1),
      now: new Date(),
      leaseMs: 10_000,
      keepMs: 86_400_000,
      holder,
      replacing,
    });

  it('lets a process take over a key whose holder it knows died, and a late release of that holder frees nothing', async () => {
    const key = randomUUID();
    expect(await claim(key, 'dead')).toEqual({ state: 'new' });
    expect(await claim(key, 'next')).toEqual({ state: 'running', holder: 'dead' });
    expect(await claim(key, 'next', 'someone-else')).toEqual({ state: 'running', holder: 'dead' });
    expect(await claim(key, 'next', 'dead')).toEqual({ state: 'new' });
    // The dead holder's release, retried after an outage, arrives late: the key stays with 'next'.
    await opts.store.release([{ credential: 'caller:h', key, holder: 'dead' }]);
    expect(await claim(key, 'third')).toEqual({ state: 'running', holder: 'next' });
    await opts.store.keep({ credential: 'caller:h', key, holder: 'dead' }, { from: 'dead' });
    await opts.store.keep({ credential: 'caller:h', key, holder: 'next' }, { from: 'next' });
    expect(await claim(key, 'third')).toEqual({ state: 'done', response: { from: 'next' } });
  });
});
