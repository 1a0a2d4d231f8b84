import { issuePersonalKey } from '@frontdesk/use-cases';
import request from 'supertest';
import { purgeExpired } from '@frontdesk/db';
import { flatten, readRateLimits } from '@frontdesk/config';
import { RATE_LIMIT_DEFAULTS, createLogger, type RateLimits } from '@frontdesk/http';
import { createProDeskApp } from '@frontdesk/pro-desk';
import {
  authorizeQuery,
  bookReplicaApp,
  bothHostsPerFile,
  booking,
  newCleaner,
  PUBLIC_KEY,
  TEST_KEY_SEALER,
  TEST_RATE_LIMITS,
} from '@frontdesk/dev-env/both-hosts';

// Limits live in PostgreSQL: two instances of a host on one database share every counter.
const h = bothHostsPerFile();

const logger = createLogger('limits', 'silent');
const limited = (over: Partial<RateLimits>) => ({ ...TEST_RATE_LIMITS, ...over });
const per = (limit: number, windowSeconds = 60) => ({ limit, windowSeconds });

/** Two replicas of the book host on the test's database, with the given limits. */
function twoBookReplicas(rateLimits: RateLimits, trustProxy: boolean | number | string = false) {
  const make = () => request(bookReplicaApp(h, { rateLimits, trustProxy }));
  return [make(), make()] as const;
}

function expectLimited(res: request.Response, policy: string) {
  expect(res.status).toBe(429);
  // REST and OAuth JSON say {error}, MCP a JSON-RPC error, pages a sentence on the page.
  const body = res.body as { error?: string | { message: string } };
  const said = typeof body.error === 'string' ? body.error : (body.error?.message ?? res.text);
  expect(said).toMatch(/Too many [^<]+; try again in \d+ (seconds|minutes)\./);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(res.headers['ratelimit-policy']).toMatch(new RegExp(`^"${policy}";q=\\d+;w=\\d+$`));
  expect(res.headers['ratelimit']).toMatch(new RegExp(`^"${policy}";r=0;t=\\d+$`));
}

describe('rate limits shared by replicas', () => {
  it('counts writes per credential across two replicas: the third write is refused on either, over REST and MCP', async () => {
    const [a, b] = twoBookReplicas(limited({ writesPerCredential: per(2) }));
    const c = await newCleaner(h);
    const { key } = await issuePersonalKey(h.t.db, 'limits@example.com');
    const auth = { Authorization: `Bearer ${key}` };
    const first = await a.post('/api/v1/book_cleaning').set(auth).send(booking(c.pro.id)).expect(200);
    expect(first.headers['ratelimit']).toMatch(/^"writes";r=1;t=\d+$/);
    await b.post('/api/v1/cancel_booking').set(auth).send({ manage_token: first.body.manage_token }).expect(200);
    expectLimited(await a.post('/api/v1/book_cleaning').set(auth).send(booking(c.pro.id)), 'writes');
    const mcp = await b
      .post('/mcp')
      .set(auth)
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'book_cleaning', arguments: booking(c.pro.id) } });
    expectLimited(mcp, 'writes');
    expect(mcp.body.error.message).toMatch(/Too many writes/);
    // Reads have a budget of their own, and another account is not affected.
    await a.get('/api/v1/my_bookings').set(auth).expect(200);
    const other = await issuePersonalKey(h.t.db, 'other@example.com');
    await b
      .post('/api/v1/book_cleaning')
      .set({ Authorization: `Bearer ${other.key}` })
      .send(booking(c.pro.id, { start: '2026-11-25T09:00:00-05:00' }))
      .expect(200);
  });

  it('counts the shared public key per client address, and reads TRUST_PROXY before believing X-Forwarded-For', async () => {
    const [a, b] = twoBookReplicas(limited({ readsPerCredential: per(2) }), 'loopback');
    const q = { zip: '10001', bedrooms: 2, bathrooms: 1 };
    const pub = { Authorization: `Bearer ${PUBLIC_KEY}` };
    await a.get('/api/v1/find_cleaners').set(pub).set('X-Forwarded-For', '203.0.113.7').query(q).expect(200);
    await b.get('/api/v1/find_cleaners').set(pub).set('X-Forwarded-For', '203.0.113.7').query(q).expect(200);
    expectLimited(await a.get('/api/v1/find_cleaners').set(pub).set('X-Forwarded-For', '203.0.113.7').query(q), 'reads');
    await a.get('/api/v1/find_cleaners').set(pub).set('X-Forwarded-For', '203.0.113.8').query(q).expect(200);
    // Without TRUST_PROXY the header is anyone's to write: the socket's address counts.
    const [plain] = twoBookReplicas(limited({ readsPerCredential: per(2) }));
    await plain.get('/api/v1/find_cleaners').set(pub).set('X-Forwarded-For', '198.51.100.1').query(q).expect(200);
    await plain.get('/api/v1/find_cleaners').set(pub).set('X-Forwarded-For', '198.51.100.2').query(q).expect(200);
    expectLimited(await plain.get('/api/v1/find_cleaners').set(pub).set('X-Forwarded-For', '198.51.100.3').query(q), 'reads');
  });

  it('stops a key guesser before the lookup: past the limit even the right key gets 429', async () => {
    const [a, b] = twoBookReplicas(limited({ authFailuresPerIp: per(3, 900) }), true);
    const { key } = await issuePersonalKey(h.t.db, 'guessed@example.com');
    const from = { 'X-Forwarded-For': '192.0.2.50' };
    for (const replica of [a, b, a]) {
      await replica
        .get('/api/v1/my_bookings')
        .set(from)
        .set('Authorization', `Bearer fdp_${'x'.repeat(32)}`)
        .expect(401);
    }
    expectLimited(await b.get('/api/v1/my_bookings').set(from).set('Authorization', `Bearer ${key}`), 'auth-failures');
    // Someone else's address is not blocked, and the public key costs no lookup at all.
    await a.get('/api/v1/my_bookings').set({ 'X-Forwarded-For': '192.0.2.51' }).set('Authorization', `Bearer ${key}`).expect(200);
    await a.get('/api/v1/my_bookings').set(from).set('Authorization', `Bearer ${PUBLIC_KEY}`).expect(200);
  });

  it('limits sign-in codes per client address, to any number of different addresses', async () => {
    const make = () =>
      request(
        createProDeskApp({
          db: h.t.db,
          config: {
            publicUrl: 'http://pro.test',
            bookingUrl: 'http://book.test',
            mcpAllowedOrigins: [],
            keySealer: TEST_KEY_SEALER,
            checkAnswers: true,
            rateLimits: limited({ signInPerIp: per(3, 3600) }),
          },
          logger,
          clock: () => h.clock.now,
        }).app,
      );
    const [a, b] = [make(), make()];
    for (const [i, replica] of [a, b, a].entries())
      await replica
        .post('/key/api/code')
        .send({ email: `spam${i}@example.com` })
        .expect(202);
    expectLimited(await b.post('/key/api/code').send({ email: 'spam9@example.com' }), 'sign-in');
    const page = await a.post('/key/code').type('form').send({ email: 'spam10@example.com' });
    expectLimited(page, 'sign-in');
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const sent = await h.t.db.selectFrom('outbox').select('to_address').where('to_address', 'like', 'spam%').execute();
    expect(sent).toHaveLength(3);
  });

  it('limits client registrations and pending authorizations per address, and purges clients never used', async () => {
    const [a, b] = twoBookReplicas(limited({ registerPerIp: per(2, 3600), authorizePerIp: per(1, 3600) }));
    const register = (replica: typeof a) => replica.post('/register').send({ client_name: 'Spammy', redirect_uris: ['https://spam.example/cb'] });
    const first = await register(a).expect(201);
    await register(b).expect(201);
    expectLimited(await register(a), 'register');
    const authorize = (replica: typeof a) =>
      replica.get('/authorize').query(authorizeQuery({ client_id: first.body.client_id, redirect_uri: 'https://spam.example/cb' }));
    await authorize(a).expect(200);
    const refused = await authorize(b);
    expectLimited(refused, 'authorize');
    expect(refused.text).toMatch(/Too many sign-ins started/);
    expect(await h.t.db.selectFrom('oauth_requests').select('id').where('client_id', '=', first.body.client_id).execute()).toHaveLength(1);
    // A day later, clients that never got a code are gone; the pre-registered one stays.
    const purged = await purgeExpired(h.t.db, new Date(Date.now() + 25 * 3600_000));
    expect(purged.oauth_clients).toBeGreaterThanOrEqual(2);
    expect(await h.t.db.selectFrom('oauth_clients').select('id').where('name', '=', 'Spammy').execute()).toEqual([]);
  });

  it('reads every limit from the environment, and refuses a value that is not a count', () => {
    const read = (env: Record<string, string>) => readRateLimits(flatten(env), RATE_LIMIT_DEFAULTS);
    expect(read({ RATE_LIMIT_WRITES_PER_MINUTE: '7' }).writesPerCredential).toEqual({ limit: 7, windowSeconds: 60 });
    expect(read({}).signInPerAddress.limit).toBe(5);
    expect(() => read({ RATE_LIMIT_SIGN_IN_PER_IP: 'lots' })).toThrow(/RATE_LIMIT_SIGN_IN_PER_IP must be a whole number/);
  });
});
