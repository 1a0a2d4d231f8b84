import { randomUUID } from 'node:crypto';
import { rateLimitStore } from '@frontdesk/db';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import type { Response } from 'express';
import { hostLimits, RateLimitedError, RateLimiter, defaultRateLimits, type Limit } from '../src';
import { as, startKit } from '@frontdesk/dev-env/http-kit';

// The limiter over the real store: counters in PostgreSQL, shared by every replica.
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

/** A Response stand-in that keeps the headers set on it. */
const headersOf = () => {
  const headers: Record<string, string> = {};
  const res = {
    headers,
    setHeader(name: string, value: string) {
      headers[name] = value;
      return res as unknown as Response;
    },
  };
  return res;
};

describe('RateLimiter', () => {
  it('counts every hit of a small limit in PostgreSQL and refuses the one past it, saying when to try again', async () => {
    const limiter = new RateLimiter(rateLimitStore(t.db), () => new Date());
    const limit: Limit = { limit: 3, windowSeconds: 600 };
    const subject = randomUUID();
    for (let i = 0; i < 3; i += 1) await limiter.take('sign-in', limit, subject, { what: 'sign-in codes' });
    expect((await rateLimitStore(t.db).hits(`sign-in:${subject}`, new Date())).hits).toBe(3);
    const err = await limiter.take('sign-in', limit, subject, { what: 'sign-in codes' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(err).toMatchObject({ status: 429, message: 'Too many sign-in codes from here; try again in 10 minutes.', retryAfterSeconds: 600 });
    // check() refuses as well, without counting another hit.
    await expect(limiter.check('sign-in', limit, subject)).rejects.toBeInstanceOf(RateLimitedError);
    expect((await rateLimitStore(t.db).hits(`sign-in:${subject}`, new Date())).hits).toBe(4);
  });

  it('starts counting again when the window has passed', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const limiter = new RateLimiter(rateLimitStore(t.db), () => now);
    const limit: Limit = { limit: 1, windowSeconds: 60 };
    const subject = randomUUID();
    await limiter.take('p', limit, subject);
    await expect(limiter.take('p', limit, subject)).rejects.toMatchObject({ retryAfterSeconds: 60 });
    now = new Date(now.getTime() + 61_000);
    await expect(limiter.take('p', limit, subject)).resolves.toBeUndefined();
  });

  it('gives the RateLimit fields on a call that passes, so a client can pace itself', async () => {
    const limiter = new RateLimiter(rateLimitStore(t.db), () => new Date());
    const limit: Limit = { limit: 2, windowSeconds: 60 };
    const subject = randomUUID();
    const res = headersOf();
    await limiter.take('reads', limit, subject, { res });
    expect(res.headers).toEqual({ 'RateLimit-Policy': '"reads";q=2;w=60', RateLimit: '"reads";r=1;t=60' });
  });

  it('leases a budget of 50 or more in shares of 5% from PostgreSQL, counts one hit at a time once no share fits, and never lets through more than the limit', async () => {
    const store = rateLimitStore(t.db);
    const limit: Limit = { limit: 60, windowSeconds: 60 };
    const subject = randomUUID();
    const key = `writes:${subject}`;
    const [a, b] = [new RateLimiter(store, () => new Date()), new RateLimiter(store, () => new Date())];
    // The first call leases a share of 3 (and the next share is leased ahead once it is half spent).
    await a.take('writes', limit, subject);
    expect((await store.hits(key, new Date())).hits).toBe(3);
    // Two replicas together, 200 calls at once: exactly the limit gets through.
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 ? a : b).take('writes', limit, subject).then(
          () => 'passed',
          (e: unknown) => (e instanceof RateLimitedError ? 'refused' : 'failed'),
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'passed').length).toBe(59);
    expect(outcomes.filter((o) => o === 'failed')).toEqual([]);
  });

  it('gives back a share it did not spend, a second after the last call', async () => {
    const store = rateLimitStore(t.db);
    const limiter = new RateLimiter(store, () => new Date());
    const limit: Limit = { limit: 600, windowSeconds: 60 };
    const subject = randomUUID();
    await limiter.take('reads', limit, subject);
    expect((await store.hits(`reads:${subject}`, new Date())).hits).toBe(30);
    // Asked until the limiter's timer has run and its write has landed, not once after a sleep
    // guessed long enough: on a busy machine both may come later. Were the share never given
    // back, this would wait on until jest's timeout fails the test.
    while ((await store.hits(`reads:${subject}`, new Date())).hits !== 1) await new Promise((r) => setTimeout(r, 100));
  });

  it('turns a limit of 0 off', async () => {
    const limiter = new RateLimiter(rateLimitStore(t.db), () => new Date());
    const subject = randomUUID();
    for (let i = 0; i < 5; i += 1) await limiter.take('off', { limit: 0, windowSeconds: 60 }, subject);
    expect((await rateLimitStore(t.db).hits(`off:${subject}`, new Date())).hits).toBe(0);
  });
});

describe('a credential’s budget on the REST routes', () => {
  it('answers 429 past it with Retry-After, RateLimit and RateLimit-Policy, and RateLimit on the calls before', async () => {
    const limits = { ...defaultRateLimits(), readsPerCredential: { limit: 2, windowSeconds: 60 } };
    const kit = await startKit({ rateLimit: { host: hostLimits(rateLimitStore(t.db), () => new Date(), limits), subjectOf: (c) => c.id } }, 'silent');
    try {
      const caller = as(`reader_${randomUUID()}`);
      const first = await fetch(`${kit.url}/api/v1/echo_query?count=1`, { headers: caller });
      expect([first.status, first.headers.get('ratelimit')]).toEqual([200, '"reads";r=1;t=60']);
      await fetch(`${kit.url}/api/v1/echo_query?count=1`, { headers: caller });
      const refused = await fetch(`${kit.url}/api/v1/echo_query?count=1`, { headers: caller });
      expect(refused.status).toBe(429);
      expect(Object.fromEntries(['retry-after', 'ratelimit', 'ratelimit-policy'].map((h) => [h, refused.headers.get(h)]))).toEqual({
        'retry-after': expect.stringMatching(/^\d+$/),
        ratelimit: expect.stringMatching(/^"reads";r=0;t=\d+$/),
        'ratelimit-policy': '"reads";q=2;w=60',
      });
      expect(((await refused.json()) as { error: string }).error).toMatch(/^Too many reads from here; try again in \d+ seconds\.$/);
      // Another credential has its own budget.
      expect((await fetch(`${kit.url}/api/v1/echo_query?count=1`, { headers: as(`reader_${randomUUID()}`) })).status).toBe(200);
    } finally {
      await kit.close();
    }
  });
});
