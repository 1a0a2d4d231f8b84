// Sign-in codes and pending authorization ids at rest (issue 26, S2): a copy of the database
// gives neither back. A code is an HMAC under a key derived from KEY_ENCRYPTION_KEY, so the
// million possible codes cannot be tried against it without the key; an authorization id is
// stored only as its HMAC. A rotation of KEY_ENCRYPTION_KEY refuses no code in flight.
import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { createLogger } from '@frontdesk/http';
import { signInCodeSentTo } from '@frontdesk/db/testing';
import { KeySealer } from '@frontdesk/oauth';
import { createProDeskApp } from '@frontdesk/pro-desk';
import { authorizeQuery, bothHostsPerFile, requestIdOn, TEST_OAUTH_CONFIG } from '@frontdesk/dev-env/both-hosts';

const h = bothHostsPerFile();

/**
 * Whether the stored hash is the code's plain salted hash (sha256 of id:code), the one a
 * thief would try all million codes against (about a second). Checked for the real code: if
 * it does not match, no code does.
 */
const plainHashOf = (id: string, code: string) => createHash('sha256').update(`${id}:${code}`).digest();

const proReplica = (sealer: KeySealer) =>
  request(
    createProDeskApp({
      db: h.t.db,
      config: { publicUrl: 'http://pro.test', bookingUrl: 'http://book.test', ...TEST_OAUTH_CONFIG, keySealer: sealer },
      logger: createLogger('t', 'silent'),
      clock: () => h.clock.now,
    }).app,
  );

describe('short secrets at rest', () => {
  it('stores a sign-in code as no plain hash a thief could try every code against', async () => {
    const email = `stolen.${Date.now()}@example.com`;
    await h.pro.post('/key/api/code').send({ email }).expect(202);
    const code = await signInCodeSentTo(h.t.db, email);
    const row = await h.t.db.selectFrom('sign_in_codes').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.code_hash.equals(plainHashOf(row.id, code))).toBe(false);
    expect(row.code_hash).toHaveLength(32);
    // The code itself still works, once.
    expect((await h.pro.post('/key/api/keys').send({ email, code }).expect(201)).body.email).toBe(email);
  });

  it('stores a pending authorization without the id the browser holds', async () => {
    const requestId = requestIdOn((await h.book.get('/authorize').query(authorizeQuery()).expect(200)).text);
    expect(requestId).toMatch(/^azr_[A-Za-z0-9_-]{43}$/);
    const rows = await h.t.db.selectFrom('oauth_requests').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(requestId.slice(4));
    // The id the browser holds still continues the sign-in.
    const next = await h.book.post('/authorize/email').type('form').send({ request_id: requestId, email: 'kim@example.com' });
    expect(next.status).toBe(303);
  });

  it('takes a code on a replica that already has the next KEY_ENCRYPTION_KEY, and refuses it under an unrelated key', async () => {
    const old = randomBytes(32);
    const email = `rotating.${Date.now()}@example.com`;
    await proReplica(new KeySealer(old)).post('/key/api/code').send({ email }).expect(202);
    const code = await signInCodeSentTo(h.t.db, email);
    const stranger = await proReplica(new KeySealer(randomBytes(32)))
      .post('/key/api/keys')
      .send({ email, code });
    expect([stranger.status, stranger.body.error]).toEqual([400, expect.stringMatching(/That code is not right/)]);
    await proReplica(new KeySealer(randomBytes(32), [old]))
      .post('/key/api/keys')
      .send({ email, code })
      .expect(201);
  });
});
