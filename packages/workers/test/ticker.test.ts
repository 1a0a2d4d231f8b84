import { startTicker, type Worker } from '../src';

// Every worker runs under one rule: first tick at start, the next one only after the previous
// finished (a slow tick never overlaps the next), stop() waits for a running tick, and each
// tick is given the injected clock's time.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const quietLogger = () => ({ warn: jest.fn(), error: jest.fn() });

async function until(done: () => boolean, ms = 2000) {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(2);
  }
}

describe('a worker', () => {
  it('ticks at once on start, with the time of the injected clock', async () => {
    const seen: Date[] = [];
    const at = new Date('2031-02-03T04:05:06Z');
    const ticker = startTicker({ name: 't', everyMs: 60_000, run: async (now) => void seen.push(now) }, { clock: () => at, logger: quietLogger() });
    expect(seen).toEqual([at]);
    await ticker.stop();
    expect(seen).toEqual([at]);
  });

  it('never overlaps a slow tick with the next, and waits everyMs after each one ends', async () => {
    let running = 0;
    let most = 0;
    const ends: number[] = [];
    const starts: number[] = [];
    const worker: Worker = {
      name: 'slow',
      everyMs: 5,
      run: async () => {
        starts.push(Date.now());
        most = Math.max(most, (running += 1));
        await sleep(25); // five times the interval
        running -= 1;
        ends.push(Date.now());
      },
    };
    const ticker = startTicker(worker, { clock: () => new Date(), logger: quietLogger() });
    await until(() => ends.length >= 4);
    await ticker.stop();
    expect(most).toBe(1);
    for (let i = 1; i < starts.length; i += 1) expect(starts[i]! - ends[i - 1]!).toBeGreaterThanOrEqual(4);
  });

  it('stops: waits for the tick under way, then schedules none', async () => {
    const gate = deferred();
    let ticks = 0;
    let finished = false;
    const ticker = startTicker(
      {
        name: 'gated',
        everyMs: 1,
        run: async () => {
          ticks += 1;
          await gate.promise;
          finished = true;
        },
      },
      { clock: () => new Date(), logger: quietLogger() },
    );
    let stopped = false;
    const stopping = ticker.stop().then(() => (stopped = true));
    await sleep(20);
    expect([ticks, stopped]).toEqual([1, false]);
    gate.resolve();
    await stopping;
    expect(finished).toBe(true);
    await sleep(20);
    expect(ticks).toBe(1);
  });

  it('warns while the database is away, logs anything else as an error, and keeps ticking', async () => {
    const logger = quietLogger();
    const failures = [new Error('Connection terminated unexpectedly'), new Error('a bug')];
    let ticks = 0;
    const ticker = startTicker(
      {
        name: 'outbox',
        everyMs: 1,
        run: async () => {
          ticks += 1;
          const failure = failures.shift();
          if (failure) throw failure;
        },
      },
      { clock: () => new Date(), logger },
    );
    await until(() => ticks >= 3);
    await ticker.stop();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith({ err: { message: 'Connection terminated unexpectedly' } }, 'outbox waits for the database');
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error.mock.calls[0]![1]).toMatch(/^outbox failed/);
  });

  it('ticks at once when woken, after a running tick rather than beside it, and waits for work a tick left running on stop', async () => {
    let ticks = 0;
    let running = 0;
    let most = 0;
    const gate = deferred();
    let drained = false;
    const worker: Worker = {
      name: 'woken',
      everyMs: 3_600_000,
      run: async () => {
        ticks += 1;
        running += 1;
        most = Math.max(most, running);
        if (ticks === 2) await gate.promise;
        running -= 1;
      },
      drain: async () => {
        await sleep(5);
        drained = true;
      },
    };
    const ticker = startTicker(worker, { clock: () => new Date(), logger: quietLogger() });
    await until(() => ticks === 1 && running === 0);
    ticker.wake();
    await until(() => ticks === 2);
    ticker.wake(); // while the second tick runs: once it ends, not beside it
    await sleep(20);
    expect(ticks).toBe(2);
    gate.resolve();
    await until(() => ticks === 3);
    expect(most).toBe(1);
    await ticker.stop();
    expect(drained).toBe(true);
    ticker.wake(); // stopped: nothing more
    await sleep(10);
    expect(ticks).toBe(3);
  });
});
